import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import type { Transaction } from '@/types/api-schema';

/** GET /transactions/{id}: one of the player's transactions, for its receipt; 404 when it is none of theirs. */
export async function getTransaction(id: string): Promise<Transaction> {
  return dataOf(await api.GET('/transactions/{id}', { params: { path: { id } } }));
}

/** Under the latest 10's key: a top-up refreshes an open receipt too (a card that settles). */
export const transactionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...TRANSACTION_HISTORY_QUERY_KEY, 'receipt', id] as const,
    queryFn: () => getTransaction(id),
  });

export const useTransaction = (id: string) => useQuery(transactionQueryOptions(id));
