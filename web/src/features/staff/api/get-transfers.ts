import { queryOptions, useQuery } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { components } from '@/types/openapi.gen';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { staffApi } from './staff-client';

export type Transfer = components['schemas']['TransferBody'];
export type TransferSuggestion = components['schemas']['SuggestionBody'];
/**
 * A match asked for past the approval threshold, waiting on an unmatched transfer: for whom,
 * who asked (another finance member approves it by matching it to that player) and when.
 */
export type PendingMatch = NonNullable<Transfer['pendingMatch']>;

export const STAFF_TRANSFERS_QUERY_KEY = [...STAFF_QUERY_KEY, 'transfers'] as const;

/**
 * GET /staff/transfers (every role): the newest 100 transfers that matched no player, with
 * whom each may be for and the match waiting for approval, if any; with `matched`, those
 * support matched by hand instead.
 */
export async function getTransfers(matched: boolean): Promise<Transfer[]> {
  return dataOf(await staffApi.GET('/staff/transfers', { params: { query: matched ? { matched: true } : {} } }));
}

export const transfersQueryOptions = (matched: boolean) =>
  queryOptions({
    queryKey: [...STAFF_TRANSFERS_QUERY_KEY, matched ? 'matched' : 'unmatched'] as const,
    queryFn: () => getTransfers(matched),
  });

export const useTransfers = (matched: boolean) => useQuery(transfersQueryOptions(matched));
