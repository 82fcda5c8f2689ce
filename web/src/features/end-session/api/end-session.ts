import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';
import type { SessionEnded } from '@/types/api-schema';

/**
 * POST /auth/end-session with the token of the new-device mail's link, signed in or not: 200
 * `{ ended }` (false when that session had already ended: signed out, or expired), 422 with
 * errors.token when the token is unknown, used or expired.
 */
export async function endSession(token: string): Promise<SessionEnded> {
  await getCsrfCookie();
  return dataOf(await api.POST('/auth/end-session', { body: { token } }));
}

/**
 * A mutation, not a query: it runs only when the player presses the button, never on page
 * load (mail scanners open links). Should the link have named this browser's own session, its
 * /me is out of date afterwards.
 */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
  });
}
