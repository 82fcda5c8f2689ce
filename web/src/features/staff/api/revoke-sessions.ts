import { useMutation, useQueryClient } from '@tanstack/react-query';

import { playerQueryKey } from './get-player';
import type { FoundPlayer } from './search-players';
import { staffApi } from './staff-client';

/** POST /staff/players/{id}/sessions/revoke (support): every session of the player ends at once. */
export async function revokeSessions(playerId: string): Promise<FoundPlayer> {
  const response = await staffApi.post<FoundPlayer>(`/staff/players/${encodeURIComponent(playerId)}/sessions/revoke`);
  return response.data;
}

export function useRevokeSessions(playerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => revokeSessions(playerId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: playerQueryKey(playerId) }),
  });
}
