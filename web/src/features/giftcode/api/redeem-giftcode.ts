import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import type { GiftcodeRedeemed } from '@/types/api-schema';

/** The longest code the server takes, in characters once trimmed. */
export const GIFTCODE_MAX_LENGTH = 64;

const v = 'giftcode.validation';

/**
 * The giftcode form: a code, trimmed, at most GIFTCODE_MAX_LENGTH characters (no code is
 * longer: a longer one is simply not a code). Nothing else of what the player typed is changed;
 * the server matches codes without regard to case. Messages are locale keys, worded as the
 * server's.
 */
export const giftcodeInputSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, `${v}.required`)
    .refine((code) => [...code].length <= GIFTCODE_MAX_LENGTH, `${v}.invalid`),
});

export type GiftcodeInput = z.input<typeof giftcodeInputSchema>;
export type GiftcodeField = keyof GiftcodeInput;

export type GiftcodeRedeemRequest = GiftcodeInput & {
  gReCaptchaToken: string;
  /** Names this attempt: the server grants KP at most once per key. */
  idempotencyKey: string;
};

/**
 * POST /giftcode/redeem: 200 granted or 202 processing; 422 with errors.code (a wrong, not yet
 * valid, expired or used code, or a campaign already redeemed) or errors.gReCaptchaToken; 429
 * with Retry-After (seconds) after too many wrong codes.
 */
export async function redeemGiftcode({ idempotencyKey, ...request }: GiftcodeRedeemRequest): Promise<GiftcodeRedeemed> {
  const body = { code: request.code.trim(), gReCaptchaToken: request.gReCaptchaToken };
  await getCsrfCookie();
  const response = await api.post<GiftcodeRedeemed>('/giftcode/redeem', body, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return response.data;
}

/** Granted KP raise the balance (header and credit bar) and add a row to the history. */
export function useRedeemGiftcode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeemGiftcode,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: TRANSACTION_HISTORY_QUERY_KEY });
    },
  });
}
