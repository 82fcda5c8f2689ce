import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import type { PaymentMethods } from '@/types/api-schema';

export const PAYMENT_METHODS_QUERY_KEY = ['payment', 'methods'] as const;

/**
 * GET /payment/methods: the banks and e-wallets to transfer to (each with the player's own
 * transfer content and its VietQR code) and the card brands with their face values.
 */
export async function getPaymentMethods(): Promise<PaymentMethods> {
  return dataOf(await api.GET('/payment/methods'));
}

export const paymentMethodsQueryOptions = () =>
  queryOptions({
    queryKey: PAYMENT_METHODS_QUERY_KEY,
    queryFn: getPaymentMethods,
  });

export const usePaymentMethods = () => useQuery(paymentMethodsQueryOptions());
