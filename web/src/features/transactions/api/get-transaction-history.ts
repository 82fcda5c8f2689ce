import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import type { Transaction } from '@/types/api-schema';

/** GET /payment/transaction-history: the latest 10 transactions, newest first. */
export async function getTransactionHistory(): Promise<Transaction[]> {
  const response = await api.get<Transaction[]>('/payment/transaction-history');
  return response.data;
}

export const transactionHistoryQueryOptions = () =>
  queryOptions({
    queryKey: TRANSACTION_HISTORY_QUERY_KEY,
    queryFn: getTransactionHistory,
  });

export const useTransactionHistory = () => useQuery(transactionHistoryQueryOptions());
