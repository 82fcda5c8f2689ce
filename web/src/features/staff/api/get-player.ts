import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { Transaction } from '@/types/api-schema';
import type { components } from '@/types/openapi.gen';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { staffApi } from './staff-client';

export type PlayerDetail = components['schemas']['PlayerDetailBody'];
export type CoinOrder = components['schemas']['OrderBody'];
type LedgerPage = components['schemas']['TransactionPage'];

/** The transactions per page of 'Xem thêm' (the server's largest page, as the first one). */
export const LEDGER_PAGE_SIZE = 100;

/** Every query of one player's page: an action on the player refreshes them all. */
export const playerQueryKey = (id: string) => [...STAFF_QUERY_KEY, 'player', id] as const;

/**
 * GET /staff/players/{id} (every role): the profile, wallet, sessions, sign-ins, the newest 100
 * transactions, coin orders, adjustments and tickets. 404 for no such player.
 */
export async function getPlayer(id: string): Promise<PlayerDetail> {
  return dataOf(await staffApi.GET('/staff/players/{id}', { params: { path: { id } } }));
}

export const playerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...playerQueryKey(id), 'detail'] as const,
    queryFn: () => getPlayer(id),
  });

export const usePlayer = (id: string) => useQuery(playerQueryOptions(id));

/** GET /staff/players/{id}/ledger?cursor=…: the transactions after `cursor`, newest first. */
export async function getLedgerPage(id: string, cursor: string): Promise<LedgerPage> {
  const answer = await staffApi.GET('/staff/players/{id}/ledger', {
    params: { path: { id }, query: { cursor, limit: String(LEDGER_PAGE_SIZE) } },
  });
  return dataOf(answer);
}

/**
 * The ledger's older pages, from the cursor the player's page ended at: read once 'Xem thêm'
 * asks (`enabled`), then a page per click.
 */
export const olderLedgerQueryOptions = (id: string, cursor: string | null, enabled: boolean) =>
  infiniteQueryOptions({
    queryKey: [...playerQueryKey(id), 'ledger', cursor] as const,
    queryFn: ({ pageParam }) => getLedgerPage(id, pageParam),
    initialPageParam: cursor ?? '',
    getNextPageParam: (page): string | null => page.nextCursor ?? null,
    enabled: enabled && !!cursor,
  });

export const useOlderLedger = (id: string, cursor: string | null, enabled: boolean) =>
  useInfiniteQuery(olderLedgerQueryOptions(id, cursor, enabled));

export type { Transaction };
