import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import { m } from '@/paraglide/messages';
import type { CoinOrder } from '@/types/api-schema';

/**
 * The coin top-up form (spec section 5, "Coin recharge submit"): a server and an amount tile.
 * The player's balance is checked by the form (tiles above it cannot be chosen) and again by
 * the server. Messages are the texts the form shows.
 */
export const coinRechargeInputSchema = z.object({
  zoneId: z.number().int().positive(m['recharge.validation.zoneRequired']()),
  creditAmount: z.number().int().positive(m['recharge.validation.amountRequired']()),
});

export type CoinRechargeInput = z.input<typeof coinRechargeInputSchema>;
export type CoinRechargeField = keyof CoinRechargeInput;

export type CoinRechargeRequest = CoinRechargeInput & {
  productCode: string;
  gReCaptchaToken: string;
  /** Names this attempt: the server moves KP at most once per key. */
  idempotencyKey: string;
};

/**
 * POST /payment/coin-recharge/{productCode}: 201 with the coin sent and any bonuses; 422 with
 * errors.zoneId or errors.creditAmount; 409 when the balance is too low; 404 for an unknown game;
 * 503 when the game cannot take orders.
 */
export async function rechargeCoin({ idempotencyKey, ...request }: CoinRechargeRequest): Promise<CoinOrder> {
  const body = {
    zoneId: request.zoneId,
    productCode: request.productCode,
    creditAmount: request.creditAmount,
    gReCaptchaToken: request.gReCaptchaToken,
  };
  await getCsrfCookie();
  const answer = await api.POST('/payment/coin-recharge/{product_code}', {
    params: { path: { product_code: request.productCode } },
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return dataOf(answer);
}

/** Spending KP lowers the balance (header and credit bar) and adds a row to the history. */
export function useRechargeCoin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rechargeCoin,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: TRANSACTION_HISTORY_QUERY_KEY });
    },
  });
}
