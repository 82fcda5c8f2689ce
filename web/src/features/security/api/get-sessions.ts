import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import type { Session } from '@/types/api-schema';

/** Not under /me's key, so refreshing the user does not ask for the sessions again. */
export const SESSIONS_QUERY_KEY = ['sessions'] as const;

/** GET /me/sessions: the player's live sessions, most recently used first. */
export async function getSessions(): Promise<Session[]> {
  return dataOf(await api.GET('/me/sessions'));
}

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: SESSIONS_QUERY_KEY,
    queryFn: getSessions,
  });

export const useSessions = () => useQuery(sessionsQueryOptions());
