import { describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { characterQueryOptions } from '../api/get-character';

describe('the character check', () => {
  const { retry, queryKey, enabled } = characterQueryOptions('fsonline', 2);
  const retries = retry as (failureCount: number, error: unknown) => boolean;

  it('is kept per game and server, and asked only once a server is chosen', () => {
    expect(queryKey).toEqual(['recharge', 'character', 'fsonline', 2]);
    expect(enabled).toBe(true);
    expect(characterQueryOptions('fsonline', 0).enabled).toBe(false);
  });

  it.each([404, 422, 503, 500])('is not asked again after a %s answer', (status) => {
    expect(retries(0, new ApiError('x', { status }))).toBe(false);
  });

  it('is asked again, a few times, when no answer came', () => {
    const lost = new ApiError('Network Error', { code: 'ERR_NETWORK' });
    expect(retries(0, lost)).toBe(true);
    expect(retries(2, lost)).toBe(true);
    expect(retries(3, lost)).toBe(false);
  });
});
