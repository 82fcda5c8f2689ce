import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { dataOf } from '@/lib/api-client';
import { m } from '@/paraglide/messages';
import type { components } from '@/types/openapi.gen';

import { playerQueryKey } from './get-player';
import { staffApi } from './staff-client';

type Refunded = components['schemas']['RefundedBody'];

/** The longest reason the console sends (as an adjustment's). */
export const REASON_MAX = 500;

/** A reason the server keeps with the action: required, at most 500 characters. */
export const reasonSchema = z
  .string()
  .trim()
  .min(1, m['staff.players.validation.reasonRequired']())
  .max(REASON_MAX, m['staff.players.validation.reasonTooLong']());

/** What a refund, a lock (and their dialog) send: the reason alone. */
export const reasonInputSchema = z.object({ reason: reasonSchema });
export type ReasonInput = z.infer<typeof reasonInputSchema>;

/**
 * POST /staff/orders/{id}/refund (finance, re-authenticated: the console's client asks for it):
 * fails an order the game never delivered and gives its KP back, once; `already` when it had
 * been refunded before.
 */
export async function refundOrder({ orderId, reason }: ReasonInput & { orderId: string }): Promise<Refunded> {
  const body: components['schemas']['RefundBody'] = { reason: reason.trim() };
  return dataOf(await staffApi.POST('/staff/orders/{id}/refund', { params: { path: { id: orderId } }, body }));
}

export function useRefundOrder(playerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundOrder,
    onSettled: () => queryClient.invalidateQueries({ queryKey: playerQueryKey(playerId) }),
  });
}
