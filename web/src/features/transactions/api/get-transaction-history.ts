import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import type { Transaction } from '@/types/api-schema';

/** GET /payment/transaction-history: the latest 10 transactions, newest first. */
export async function getTransactionHistory(): Promise<Transaction[]> {
  return dataOf(await api.GET('/payment/transaction-history'));
}

export const transactionHistoryQueryOptions = () =>
  queryOptions({
    queryKey: TRANSACTION_HISTORY_QUERY_KEY,
    queryFn: getTransactionHistory,
  });

export const useTransactionHistory = () => useQuery(transactionHistoryQueryOptions());
