import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';

export const emailVerificationQueryKey = (token: string) => ['/email-verification', token] as const;

/**
 * PUT /auth/email-verification with the token of the mailed link: 204 once the address is
 * verified, 422 when the token is unknown, expired, used or the address changed since.
 */
export async function verifyEmail(token: string): Promise<void> {
  await getCsrfCookie();
  await api.PUT('/auth/email-verification', { body: { token } });
}

/**
 * The token is single use, so this "query" runs once per token and page load: its answer never
 * goes stale, is not retried or refetched, and a second component asking for it (React's strict
 * mode mounts twice) shares the request in flight. The request ignores the abort signal, so
 * leaving the page does not cancel a verification the server may already have done.
 */
export const emailVerificationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: emailVerificationQueryKey(token),
    queryFn: async ({ client }) => {
      await verifyEmail(token);
      // The address is verified now: a signed-in player's /me is out of date.
      void client.invalidateQueries({ queryKey: USER_QUERY_KEY });
      return true as const;
    },
    staleTime: Infinity,
    retry: false,
    retryOnMount: false,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export const useEmailVerification = (token: string) => useQuery(emailVerificationQueryOptions(token));
