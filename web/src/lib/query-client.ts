import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

import { isSlowConnection } from './browser';
import { ApiError } from './api-client';

export const ERROR_RETRY_DELAY_MS = 5_000;
export const SLOW_ERROR_RETRY_DELAY_MS = 10_000;
export const MAX_RETRIES = 3;

/** Client errors will fail the same way again; transport errors and 5xx are worth retrying. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  const status = error instanceof ApiError ? error.status : undefined;
  return status === undefined || status >= 500 || status === 408 || status === 429;
}

export function retryDelay(): number {
  return isSlowConnection() ? SLOW_ERROR_RETRY_DELAY_MS : ERROR_RETRY_DELAY_MS;
}

export const queryConfig = {
  queries: {
    retry: shouldRetry,
    retryDelay,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
    // Requests for the same data within 2 s share one answer.
    staleTime: 2_000,
  },
  mutations: {
    retry: false,
  },
} satisfies DefaultOptions;

export function createQueryClient(overrides: DefaultOptions = {}) {
  return new QueryClient({
    defaultOptions: {
      queries: { ...queryConfig.queries, ...overrides.queries },
      mutations: { ...queryConfig.mutations, ...overrides.mutations },
    },
  });
}
