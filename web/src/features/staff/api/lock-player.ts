import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { components } from '@/types/openapi.gen';

import { playerQueryKey } from './get-player';
import type { ReasonInput } from './refund-order';
import type { FoundPlayer } from './search-players';
import { staffApi } from './staff-client';

const playerPath = (id: string) => `/staff/players/${encodeURIComponent(id)}`;

/**
 * POST /staff/players/{id}/lock (support): neither the password nor a passkey signs the account
 * in any more, and its sessions end; the reason is kept for staff. 422 errors.reason without one.
 */
export async function lockPlayer({ playerId, reason }: ReasonInput & { playerId: string }): Promise<FoundPlayer> {
  const body: components['schemas']['LockBody'] = { reason: reason.trim() };
  const response = await staffApi.post<FoundPlayer>(`${playerPath(playerId)}/lock`, body);
  return response.data;
}

/** POST /staff/players/{id}/unlock (support). */
export async function unlockPlayer(playerId: string): Promise<FoundPlayer> {
  const response = await staffApi.post<FoundPlayer>(`${playerPath(playerId)}/unlock`);
  return response.data;
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
