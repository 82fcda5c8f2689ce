import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { components } from '@/types/openapi.gen';

import { playerQueryKey } from './get-player';
import type { ReasonInput } from './refund-order';
import type { FoundPlayer } from './search-players';
import { staffApi } from './staff-client';

/**
 * POST /staff/players/{id}/lock (support): neither the password nor a passkey signs the account
 * in any more, and its sessions end; the reason is kept for staff. 422 errors.reason without one.
 */
export async function lockPlayer({ playerId, reason }: ReasonInput & { playerId: string }): Promise<FoundPlayer> {
  const body: components['schemas']['LockBody'] = { reason: reason.trim() };
  return dataOf(await staffApi.POST('/staff/players/{id}/lock', { params: { path: { id: playerId } }, body }));
}

/** POST /staff/players/{id}/unlock (support). */
export async function unlockPlayer(playerId: string): Promise<FoundPlayer> {
  return dataOf(await staffApi.POST('/staff/players/{id}/unlock', { params: { path: { id: playerId } } }));
}

export function useLockPlayer(playerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReasonInput) => lockPlayer({ ...input, playerId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: playerQueryKey(playerId) }),
  });
}

export function useUnlockPlayer(playerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unlockPlayer(playerId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: playerQueryKey(playerId) }),
  });
}
