// @isolated-module-graph: startApp starts i18n and a router on the window's URL; this file runs
// in a worker of its own (vite.config.ts) so neither reaches another file's tests.
import { afterEach, describe, expect, it } from 'vitest';

import { productsQueryOptions } from '@/features/recharge/api/get-products';
import { transactionHistoryQueryOptions } from '@/features/transactions/api/get-transaction-history';
import { USER_QUERY_KEY } from '@/lib/auth';

import { startApp } from '../start';

const HISTORY = transactionHistoryQueryOptions().queryKey;
const PRODUCTS = productsQueryOptions().queryKey;

function startAt(path: string) {
  window.history.replaceState(null, '', path);
  return startApp();
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('the start of the app', () => {
  it("asks for a signed-in page's data beside GET /me, before anything renders", () => {
    const { queryClient } = startAt('/transactions');
    expect(queryClient.getQueryState(HISTORY)?.fetchStatus).toBe('fetching');
    expect(queryClient.getQueryState(USER_QUERY_KEY)?.fetchStatus).toBe('fetching');
    expect(queryClient.getQueryState(PRODUCTS)).toBeUndefined();

    const recharge = startAt('/recharge').queryClient;
    expect(recharge.getQueryState(PRODUCTS)?.fetchStatus).toBe('fetching');
    expect(recharge.getQueryState(HISTORY)).toBeUndefined();
  });

  it('asks the sign-in page for the user alone', () => {
    const { queryClient } = startAt('/login');
    expect(queryClient.getQueryState(USER_QUERY_KEY)?.fetchStatus).toBe('fetching');
    expect(queryClient.getQueryState(HISTORY)).toBeUndefined();
    expect(queryClient.getQueryState(PRODUCTS)).toBeUndefined();
  });
});
