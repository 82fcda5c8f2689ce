import { focusManager, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  DEDUPE_INTERVAL_MS,
  ERROR_RETRY_INTERVAL_MS,
  FOCUS_THROTTLE_MS,
  LOADING_SLOW_MS,
  SLOW_ERROR_RETRY_INTERVAL_MS,
  SLOW_LOADING_SLOW_MS,
} from '@/config/constants';
import { ApiError } from '@/lib/api-client';
import { userQueryOptions } from '@/lib/auth';
import { errorRetryIntervalMs, isSlowConnection, loadingSlowAfterMs } from '@/lib/connection';
import { createQueryClient, retryDelay, shouldRetry } from '@/lib/query-client';
import { buildUser } from '@/testing/data';

const original = Object.getOwnPropertyDescriptor(navigator, 'connection');

function setConnection(connection: { effectiveType?: string; saveData?: boolean } | undefined) {
  Object.defineProperty(navigator, 'connection', { value: connection, configurable: true });
}

afterEach(() => {
  if (original) Object.defineProperty(navigator, 'connection', original);
  else delete (navigator as { connection?: unknown }).connection;
  vi.useRealTimers();
  focusManager.setFocused(undefined);
});

describe('user-data caching constants (spec section 9)', () => {
  it('are the spec’s values', () => {
    expect(ERROR_RETRY_INTERVAL_MS).toBe(5_000);
    expect(SLOW_ERROR_RETRY_INTERVAL_MS).toBe(10_000);
    expect(FOCUS_THROTTLE_MS).toBe(5_000);
    expect(DEDUPE_INTERVAL_MS).toBe(2_000);
    expect(LOADING_SLOW_MS).toBe(3_000);
    expect(SLOW_LOADING_SLOW_MS).toBe(5_000);
  });

  it('retry after 5 s and count loading slow after 3 s on a fast connection', () => {
    expect(errorRetryIntervalMs(false)).toBe(5_000);
    expect(loadingSlowAfterMs(false)).toBe(3_000);
  });

  it('retry after 10 s and count loading slow after 5 s on a slow connection', () => {
    expect(errorRetryIntervalMs(true)).toBe(10_000);
    expect(loadingSlowAfterMs(true)).toBe(5_000);
  });
});

describe('slow connection (Network Information API)', () => {
  it.each(['slow-2g', '2g', '3g'])('counts %s as slow', (effectiveType) => {
    setConnection({ effectiveType });
    expect(isSlowConnection()).toBe(true);
    expect(errorRetryIntervalMs()).toBe(10_000);
    expect(loadingSlowAfterMs()).toBe(5_000);
  });

  it('counts Save-Data as slow, whatever the type', () => {
    setConnection({ effectiveType: '4g', saveData: true });
    expect(isSlowConnection()).toBe(true);
  });

  it('counts 4g as fast', () => {
    setConnection({ effectiveType: '4g', saveData: false });
    expect(isSlowConnection()).toBe(false);
    expect(errorRetryIntervalMs()).toBe(5_000);
    expect(loadingSlowAfterMs()).toBe(3_000);
  });

  it('counts a browser without the API as fast', () => {
    setConnection(undefined);
    expect(isSlowConnection()).toBe(false);
  });
});

describe('query retry policy', () => {
  it('retries transport and server errors a few times', () => {
    expect(shouldRetry(0, new ApiError('Network Error'))).toBe(true);
    expect(shouldRetry(2, new ApiError('boom', { status: 503 }))).toBe(true);
    expect(shouldRetry(3, new ApiError('boom', { status: 503 }))).toBe(false);
  });

  it('does not retry 401 or other client errors', () => {
    expect(shouldRetry(0, new ApiError('Unauthenticated.', { status: 401 }))).toBe(false);
    expect(shouldRetry(0, new ApiError('Not found', { status: 404 }))).toBe(false);
    expect(shouldRetry(0, new ApiError('Invalid', { status: 422 }))).toBe(false);
  });

  it('waits 5 s between retries, 10 s on a slow connection', () => {
    expect(retryDelay()).toBe(5_000);
    setConnection({ effectiveType: '2g' });
    expect(retryDelay()).toBe(10_000);
  });
});

describe('the user query (GET /me)', () => {
  it('takes the spec’s caching: retry delay, dedupe and throttled focus revalidation', () => {
    const options = createQueryClient().defaultQueryOptions(userQueryOptions());
    expect(options.staleTime).toBe(DEDUPE_INTERVAL_MS);
    expect(options.refetchOnReconnect).toBe(true);
    expect(typeof options.refetchOnWindowFocus).toBe('function');
    const delay = options.retryDelay as () => number;
    expect(delay()).toBe(5_000);
    setConnection({ effectiveType: 'slow-2g' });
    expect(delay()).toBe(10_000);
  });

  it('is revalidated on focus at most once per 5 s, and not within 2 s of an answer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const client = createQueryClient({ queries: { retry: false } });
    // As QueryClientProvider does: the client starts listening to focus and reconnect.
    client.mount();
    const queryFn = vi.fn(() => Promise.resolve(buildUser()));
    const observer = new QueryObserver(client, { ...userQueryOptions(), queryFn });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(queryFn).toHaveBeenCalledTimes(1));

    const focus = async (at: number) => {
      vi.setSystemTime(at);
      focusManager.setFocused(false);
      focusManager.setFocused(true);
      // The client reacts to focus after a microtask or two; then any refetch has started.
      await new Promise((resolve) => setTimeout(resolve, 10));
      await client.getQueryCache().find({ queryKey: ['me'] })?.promise;
    };

    // Within 2 s of the answer: deduped.
    await focus(1_000);
    expect(queryFn).toHaveBeenCalledTimes(1);
    // The focus throttle counts from that focus (1 s), as SWR's did: not before 6 s.
    await focus(3_000);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await focus(6_000);
    expect(queryFn).toHaveBeenCalledTimes(2);
    await focus(10_000);
    expect(queryFn).toHaveBeenCalledTimes(2);
    await focus(11_000);
    expect(queryFn).toHaveBeenCalledTimes(3);
    unsubscribe();
    client.unmount();
  });
});
