import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';

import { SESSIONS_QUERY_KEY } from './get-sessions';

/**
 * DELETE /me/sessions/{id}: signs that session out (204); 404 when it no longer exists, e.g.
 * it expired or was signed out elsewhere meanwhile.
 */
export async function signOutSession(id: string): Promise<void> {
  await getCsrfCookie();
  await api.DELETE('/me/sessions/{handle}', { params: { path: { handle: id } } });
}

/** Either way the list is out of date afterwards: the session is gone. */
export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}
