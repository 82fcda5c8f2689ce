import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import type { Transaction } from '@/types/api-schema';

/** How many of the player's latest transactions a ticket can be about. */
export const TICKET_TRANSACTIONS_LIMIT = 50;

/** GET /transactions (the full history's first page): the latest transactions, newest first. */
export async function getTicketTransactions(): Promise<Transaction[]> {
  const answer = await api.GET('/transactions', { params: { query: { limit: String(TICKET_TRANSACTIONS_LIMIT) } } });
  return dataOf(answer).items;
}

/** Under the history's key: a top-up refreshes the choice too. */
export const ticketTransactionsQueryOptions = () =>
  queryOptions({
    queryKey: [...TRANSACTION_HISTORY_QUERY_KEY, 'support'] as const,
    queryFn: getTicketTransactions,
  });

export const useTicketTransactions = () => useQuery(ticketTransactionsQueryOptions());
