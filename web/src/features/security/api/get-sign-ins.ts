import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import type { SignIn } from '@/types/api-schema';

/** Not under /me's key, so refreshing the user does not ask for the history again. */
export const SIGN_INS_QUERY_KEY = ['sign-ins'] as const;

/**
 * GET /me/sign-ins: the player's last 50 sign-ins and refused attempts (a wrong password, a
 * wrong second-factor code), newest first.
 */
export async function getSignIns(): Promise<SignIn[]> {
  return dataOf(await api.GET('/me/sign-ins'));
}

export const signInsQueryOptions = () =>
  queryOptions({
    queryKey: SIGN_INS_QUERY_KEY,
    queryFn: getSignIns,
  });

export const useSignIns = () => useQuery(signInsQueryOptions());
