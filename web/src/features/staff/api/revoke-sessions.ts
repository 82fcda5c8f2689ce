import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';

import { playerQueryKey } from './get-player';
import type { FoundPlayer } from './search-players';
import { staffApi } from './staff-client';

/** POST /staff/players/{id}/sessions/revoke (support): every session of the player ends at once. */
export async function revokeSessions(playerId: string): Promise<FoundPlayer> {
  return dataOf(await staffApi.POST('/staff/players/{id}/sessions/revoke', { params: { path: { id: playerId } } }));
}

export function useRevokeSessions(playerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => revokeSessions(playerId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: playerQueryKey(playerId) }),
  });
}
