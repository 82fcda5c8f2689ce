import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { components } from '@/types/openapi.gen';

import { STAFF_TRANSFERS_QUERY_KEY } from './get-transfers';
import { staffApi } from './staff-client';

export type Matched = components['schemas']['MatchedBody'];
export type MatchTransferInput = { transferId: string; player: string };

/**
 * POST /staff/transfers/{id}/match (finance, re-authenticated: the console's client asks for
 * it): credits the transfer to the player (a username or id) through the normal top-up path,
 * once. The KP credited before the partner bonus; `already` when it had been matched to this
 * player before. Maker-checker: past the approval threshold (alone, or with what the member or
 * the player had matched alone over 24 hours) nothing is credited, the match is only asked for
 * (`pending`; with `already`, the member had asked for this player before) until another
 * finance member matches it to the same player, which credits it. 422 errors.player for no such
 * player; 409 when it went to someone else, when it was paid into none of our accounts, or when
 * another member asked for it for another player.
 */
export async function matchTransfer({ transferId, player }: MatchTransferInput): Promise<Matched> {
  const body: components['schemas']['MatchBody'] = { player: player.trim() };
  return dataOf(await staffApi.POST('/staff/transfers/{id}/match', { params: { path: { id: transferId } }, body }));
}

/**
 * A match moves the transfer from the queue to the matched ones, an ask marks it pending: both
 * lists are read again.
 */
export function useMatchTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: matchTransfer,
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_TRANSFERS_QUERY_KEY }),
  });
}
