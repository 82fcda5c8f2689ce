import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { components } from '@/types/openapi.gen';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { staffApi } from './staff-client';

export type FoundPlayer = components['schemas']['PlayerBody'];

/**
 * GET /staff/players?q=… (every role): at most 20 players whose username starts with `q`, or
 * whose email, phone, id, transfer content (KID…) or transaction id is `q`.
 */
export async function searchPlayers(q: string): Promise<FoundPlayer[]> {
  return dataOf(await staffApi.GET('/staff/players', { params: { query: { q } } }));
}

export const playerSearchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: [...STAFF_QUERY_KEY, 'player-search', q] as const,
    queryFn: () => searchPlayers(q),
    enabled: q !== '',
    // The last answer stays while the next query's is on its way.
    placeholderData: keepPreviousData,
  });

export const usePlayerSearch = (q: string) => useQuery(playerSearchQueryOptions(q));
