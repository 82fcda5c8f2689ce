import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useState } from 'react';
import { z } from 'zod';

import { useCaptchaToken } from '@/hooks/use-captcha-token';
import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';
import type { GiftcodeRedeemed, RedeemBody } from '@/types/api-schema';

/** The longest code the server takes, in characters once trimmed. */
export const GIFTCODE_MAX_LENGTH = apiLimits.RedeemBody.code.maxLength;

/** How long to wait before asking again how far a gift of in-game items got. */
export const DELIVERY_CHECK_INTERVAL_MS = 2_000;

/** How many times at most to ask; the game usually answers within a few seconds. */
export const DELIVERY_CHECKS = 5;

/**
 * The giftcode form: a code, trimmed, at most GIFTCODE_MAX_LENGTH characters (no code is
 * longer: a longer one is simply not a code). Nothing else of what the player typed is changed;
 * the server matches codes without regard to case. Messages are the texts shown, worded as the
 * server's. `zoneId` is the zone chosen for a code of in-game items, 0 while none is (the form
 * asks for one only once the server said the code needs it).
 */
export const giftcodeInputSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, m['giftcode.validation.required']())
    .refine((code) => [...code].length <= GIFTCODE_MAX_LENGTH, m['giftcode.validation.invalid']()),
  zoneId: z.number().int().nonnegative(),
});

export type GiftcodeInput = z.input<typeof giftcodeInputSchema>;
export type GiftcodeField = keyof GiftcodeInput;

export type GiftcodeRedeemRequest = GiftcodeInput & {
  gReCaptchaToken: string;
  /** Names this attempt: the server grants KP at most once per key. */
  idempotencyKey: string;
};

/**
 * POST /giftcode/redeem: 200 granted or 202 processing for a KP code; for a code of in-game
 * items 202 sent, and for the same key later 200 delivered or failed. 422 with errors.code (a
 * wrong, not yet valid, expired or used code, or a campaign already redeemed),
 * errors.gReCaptchaToken, or errors.zoneId with the game's productCode (an item code without a
 * zone, or with one the game does not have or where the player has no character); 503 when the
 * game did not answer the character check; 429 with Retry-After (seconds) after too many wrong
 * codes. `zoneId` is sent only when one was chosen.
 */
export async function redeemGiftcode({ idempotencyKey, ...request }: GiftcodeRedeemRequest): Promise<GiftcodeRedeemed> {
  const body: RedeemBody = { code: request.code.trim(), gReCaptchaToken: request.gReCaptchaToken };
  if (request.zoneId > 0) body.zoneId = request.zoneId;
  await getCsrfCookie();
  const answer = await api.POST('/giftcode/redeem', {
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return dataOf(answer);
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

/**
 * Follows a gift of in-game items the game has not acknowledged yet ('sent'): every
 * DELIVERY_CHECK_INTERVAL_MS, at most DELIVERY_CHECKS times, `request` is sent again with the
 * same Idempotency-Key – which redeems nothing more and answers how far the gift got – until the
 * game delivered or failed it. Each replay takes a fresh captcha token: the gateway verifies one
 * on every request, and reCAPTCHA accepts a token only once. A replay that fails is a check
 * that learned nothing. `onDelivered` is called when the items arrive. `following` is true
 * while more checks are to come.
 */
export function useItemDelivery(request: GiftcodeRedeemRequest, first: GiftcodeRedeemed, onDelivered: () => void) {
  const captcha = useCaptchaToken('giftcodeFormSubmit');
  const [delivery, setDelivery] = useState({ answer: first, checks: 0 });
  const following = delivery.answer.status === 'sent' && delivery.checks < DELIVERY_CHECKS;

  const check = useEffectEvent(async (isCurrent: () => boolean) => {
    let answer = delivery.answer;
    try {
      const gReCaptchaToken = (await captcha.getToken()) ?? request.gReCaptchaToken;
      answer = await redeemGiftcode({ ...request, gReCaptchaToken });
    } catch {
      // Nothing learned this time; the next check asks again.
    }
    if (!isCurrent()) return;
    setDelivery((current) => ({ answer, checks: current.checks + 1 }));
    if (answer.status === 'delivered') onDelivered();
  });

  useEffect(() => {
    if (!following) return;
    let current = true;
    const timer = window.setTimeout(() => void check(() => current), DELIVERY_CHECK_INTERVAL_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [following, delivery.checks]);

  return { answer: delivery.answer, following };
}
