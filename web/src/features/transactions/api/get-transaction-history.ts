import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Transaction } from '@/types/api';

export const TRANSACTION_HISTORY_QUERY_KEY = ['transactions', 'history'] as const;

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
