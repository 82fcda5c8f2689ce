import { afterEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';
import { retryDelay, shouldRetry } from '@/lib/query-client';

describe('query retry policy', () => {
  const original = Object.getOwnPropertyDescriptor(navigator, 'connection');
  afterEach(() => {
    if (original) Object.defineProperty(navigator, 'connection', original);
    else delete (navigator as { connection?: unknown }).connection;
  });

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
    Object.defineProperty(navigator, 'connection', { value: { effectiveType: '2g' }, configurable: true });
    expect(retryDelay()).toBe(10_000);
  });
});
