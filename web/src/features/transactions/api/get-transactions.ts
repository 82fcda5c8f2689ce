import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { HISTORY_PAGE_SIZE } from '@/config/constants';
import { env } from '@/config/env';
import { api, dataOf } from '@/lib/api-client';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import type { TransactionPage } from '@/types/api-schema';

import { filtersToSearch, type TransactionFilters } from '../utils/filters';

type TransactionsRequest = {
  filters: TransactionFilters;
  /** The `nextCursor` of the page before; null for the first page. */
  cursor: string | null;
  limit?: number;
};

/**
 * GET /transactions: a page of the full history, newest created first, with the filters that
 * are set; `nextCursor` asks for the page after it (null on the last). A bad filter is a 422
 * with `errors.type`, `errors.status`, `errors.from` or `errors.to`.
 */
export async function getTransactions({
  filters,
  cursor,
  limit = HISTORY_PAGE_SIZE,
}: TransactionsRequest): Promise<TransactionPage> {
  const params = Object.fromEntries(filtersToSearch(filters));
  const answer = await api.GET('/transactions', {
    params: { query: { ...params, limit: String(limit), ...(cursor ? { cursor } : {}) } },
  });
  return dataOf(answer);
}

/** Under the latest 10's key: a top-up refreshes it too. */
export const transactionsQueryKey = (filters: TransactionFilters) =>
  [...TRANSACTION_HISTORY_QUERY_KEY, 'all', filters] as const;

export const transactionsQueryOptions = (filters: TransactionFilters) =>
  infiniteQueryOptions({
    queryKey: transactionsQueryKey(filters),
    queryFn: ({ pageParam }) => getTransactions({ filters, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

export const useTransactions = (filters: TransactionFilters) => useInfiniteQuery(transactionsQueryOptions(filters));

/**
 * GET /transactions/export.csv with the same filters: the browser downloads it itself (a plain
 * link), streamed by the server, so that no page of it passes through the app's memory.
 */
export function transactionsCsvUrl(filters: TransactionFilters): string {
  const search = filtersToSearch(filters).toString();
  return `${env.API_URL}/transactions/export.csv${search ? `?${search}` : ''}`;
}
