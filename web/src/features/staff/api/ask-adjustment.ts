import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { dataOf } from '@/lib/api-client';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';
import type { components } from '@/types/openapi.gen';

import { findPlayer } from './find-player';
import { STAFF_ADJUSTMENTS_QUERY_KEY } from './get-adjustments';
import { staffApi } from './staff-client';

export type AdjustmentAnswer = components['schemas']['AdjustmentAnswer'];

/** As the wallet takes it: not 0, at most a billion KP either way. */
export const MAX_ADJUSTMENT_KP = 1_000_000_000;
/** As the wallet takes it. */
export const MAX_REASON_LENGTH = apiLimits.AskBody.reason.maxLength;

/** "+250.000", "-1 000", "250,000": a sign, digits and the separators people type. */
const KP_TEXT = /^[+-]?\d{1,3}(?:[ .,]?\d{3})*$|^[+-]?\d+$/;

/**
 * The ask form: the player's username, the KP as a signed whole number (positive credits the
 * player, negative claws back) and a reason, with the texts its fields show.
 */
export const askAdjustmentSchema = z.object({
  player: z.string().trim().min(1, m['staff.adjustments.ask.validation.playerRequired']()),
  kp: z
    .string()
    .trim()
    .min(1, m['staff.adjustments.ask.validation.kpRequired']())
    .regex(KP_TEXT, m['staff.adjustments.ask.validation.kpInvalid']())
    .transform((text) => Number(text.replace(/[ .,]/g, '')))
    .refine((kp) => kp !== 0, m['staff.adjustments.ask.validation.kpZero']())
    .refine((kp) => Math.abs(kp) <= MAX_ADJUSTMENT_KP, m['staff.adjustments.ask.validation.kpTooLarge']()),
  reason: z
    .string()
    .trim()
    .min(1, m['staff.adjustments.ask.validation.reasonRequired']())
    .max(MAX_REASON_LENGTH, m['staff.adjustments.ask.validation.reasonTooLong']()),
});

export type AskAdjustmentForm = z.input<typeof askAdjustmentSchema>;
export type AskAdjustmentInput = z.output<typeof askAdjustmentSchema>;
/** The form's fields that the server's 422 can name (`userId` is the player's). */
export const ASK_ADJUSTMENT_FIELDS = ['kp', 'reason'] as const;

/** The username matched no player: said under the player field. */
export class NoSuchPlayerError extends Error {
  constructor(readonly player: string) {
    super(`no player ${player}`);
    this.name = 'NoSuchPlayerError';
  }
}

export type AskAdjustmentRequest = AskAdjustmentInput & {
  /** Names this ask: the server makes one adjustment per key, however often it is sent. */
  idempotencyKey: string;
};

/**
 * Finds the player by username (GET /staff/players?q=…), then POST /staff/adjustments
 * (finance, re-authenticated: the console's client asks for it and sends the call again with
 * the same Idempotency-Key): 201 with the adjustment, applied at once within the threshold,
 * else pending for a second finance member. 422 errors.kp or errors.reason; NoSuchPlayerError
 * when no player has the username.
 */
export async function askAdjustment({
  player,
  kp,
  reason,
  idempotencyKey,
}: AskAdjustmentRequest): Promise<AdjustmentAnswer> {
  const found = await findPlayer(player);
  if (!found) throw new NoSuchPlayerError(player);
  const body: components['schemas']['AskBody'] = { userId: found.id, kp, reason };
  const answer = await staffApi.POST('/staff/adjustments', {
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return dataOf(answer);
}

export function useAskAdjustment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: askAdjustment,
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_ADJUSTMENTS_QUERY_KEY }),
  });
}
