import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import type { Transaction, TransactionPage } from '@/types/api-schema';

/** How many of the player's latest transactions a ticket can be about. */
export const TICKET_TRANSACTIONS_LIMIT = 50;

/** GET /transactions (the full history's first page): the latest transactions, newest first. */
export async function getTicketTransactions(): Promise<Transaction[]> {
  const response = await api.get<TransactionPage>('/transactions', {
    params: { limit: TICKET_TRANSACTIONS_LIMIT },
  });
  return response.data.items;
}

/** Under the history's key: a top-up refreshes the choice too. */
export const ticketTransactionsQueryOptions = () =>
  queryOptions({
    queryKey: [...TRANSACTION_HISTORY_QUERY_KEY, 'support'] as const,
    queryFn: getTicketTransactions,
  });

export const useTicketTransactions = () => useQuery(ticketTransactionsQueryOptions());
