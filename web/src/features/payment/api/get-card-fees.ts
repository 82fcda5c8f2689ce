import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import type { CardFee } from '@/types/api-schema';

export const CARD_FEES_QUERY_KEY = ['payment', 'card-fees'] as const;

/** GET /payment/card-recharge/fees: the fee percent per card brand and face value. */
export async function getCardFees(): Promise<CardFee[]> {
  return dataOf(await api.GET('/payment/card-recharge/fees'));
}

export const cardFeesQueryOptions = () =>
  queryOptions({
    queryKey: CARD_FEES_QUERY_KEY,
    queryFn: getCardFees,
  });

export const useCardFees = () => useQuery(cardFeesQueryOptions());

/** The fee for a brand's face value; undefined when the table has no row for it. */
export function feeFor(fees: readonly CardFee[] | undefined, provider: string, value: number): number | undefined {
  const code = provider.toLowerCase();
  return fees?.find((fee) => fee.provider.toLowerCase() === code && fee.value === value)?.feePercent;
}
