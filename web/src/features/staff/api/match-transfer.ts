import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { components } from '@/types/openapi.gen';

import { STAFF_TRANSFERS_QUERY_KEY } from './get-transfers';
import { staffApi } from './staff-client';

export type Matched = components['schemas']['MatchedBody'];
export type MatchTransferInput = { transferId: string; player: string };

/**
 * POST /staff/transfers/{id}/match (finance, re-authenticated: the console's client asks for
 * it): credits the transfer to the player (a username or id) through the normal top-up path,
 * once. The KP credited before the partner bonus; `already` when it had been matched to this
 * player before. 422 errors.player for no such player; 409 when it went to someone else.
 */
export async function matchTransfer({ transferId, player }: MatchTransferInput): Promise<Matched> {
  const body: components['schemas']['MatchBody'] = { player: player.trim() };
  const response = await staffApi.post<Matched>(`/staff/transfers/${encodeURIComponent(transferId)}/match`, body);
  return response.data;
}

/** A match moves the transfer from the queue to the matched ones: both lists are read again. */
export function useMatchTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: matchTransfer,
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_TRANSFERS_QUERY_KEY }),
  });
}
