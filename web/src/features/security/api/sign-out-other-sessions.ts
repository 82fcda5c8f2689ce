import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';

import { SESSIONS_QUERY_KEY } from './get-sessions';

/** POST /me/sessions/sign-out-others: signs out every session but this browser's (204). */
export async function signOutOtherSessions(): Promise<void> {
  await getCsrfCookie();
  await api.POST('/me/sessions/sign-out-others');
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}
