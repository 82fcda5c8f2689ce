import { queryOptions, useQueries } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { components } from '@/types/openapi.gen';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { staffApi } from './staff-client';

type FoundPlayer = components['schemas']['PlayerBody'];

/**
 * GET /staff/players?q=… (every role) narrowed to the one player whose username (any case) or
 * id is exactly `key`; null when none is (the look-up also finds usernames that start with it).
 */
export async function findPlayer(key: string): Promise<FoundPlayer | null> {
  const wanted = key.trim().toLowerCase();
  if (!wanted) return null;
  const players = dataOf(await staffApi.GET('/staff/players', { params: { query: { q: wanted } } }));
  return players.find((player) => player.username.toLowerCase() === wanted || player.id.toLowerCase() === wanted) ?? null;
}

/** A player by id, kept for the session: an adjustment names its player by id only. */
export const playerByIdQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...STAFF_QUERY_KEY, 'player-by-id', id] as const,
    queryFn: () => findPlayer(id),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The usernames of the players `ids`, by id, as they arrive (an id not known yet is missing). */
export function usePlayerUsernames(ids: readonly string[]): ReadonlyMap<string, string> {
  const unique = [...new Set(ids)];
  return useQueries({
    queries: unique.map((id) => playerByIdQueryOptions(id)),
    combine: (results) =>
      new Map(
        results.flatMap((result, index) => (result.data ? [[unique[index]!, result.data.username] as const] : [])),
      ),
  });
}
