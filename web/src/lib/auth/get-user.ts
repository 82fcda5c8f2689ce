import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf, orOnStatus } from '@/lib/api-client';
import type { User } from '@/types/api-schema';

export const USER_QUERY_KEY = ['me'] as const;

/** The current user, or null when signed out (GET /me answers 401). */
export async function getUser(): Promise<User | null> {
  return orOnStatus(
    api.GET('/me').then((answer) => dataOf(answer)),
    401,
    null,
  );
}

/**
 * The current user takes the spec's user-data caching (section 9) from the client's defaults
 * (lib/query-client.ts): retried after 5 s (10 s on a slow connection), revalidated on focus at
 * most every 5 s and on reconnect, an answer reused for 2 s.
 */
export const userQueryOptions = () =>
  queryOptions({
    queryKey: USER_QUERY_KEY,
    queryFn: getUser,
  });

export const useUser = () => useQuery(userQueryOptions());
