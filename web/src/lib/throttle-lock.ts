import { toApiError } from './api-client';

/** How long a form stays locked after a 429 that sent no (valid) Retry-After. */
export const DEFAULT_LOCK_SECONDS = 60;

/** setTimeout's longest delay is about 24.8 days; no lock is meant to last anywhere near it. */
const MAX_LOCK_SECONDS = 24 * 60 * 60;

/** A lock after too many wrong guesses: for how long, and the minutes the message names. */
export type ThrottleLock = { seconds: number; minutes: number };

/**
 * The lock a failed guess imposes (a code of two-factor, say): on a 429, for the answer's
 * Retry-After (seconds), the message naming ceil(Retry-After / 60) minutes, at least 1. Null
 * for any other failure. As the giftcode form's lock (features/giftcode/utils/lock.ts).
 */
export function throttleLockOf(error: unknown): ThrottleLock | null {
  const apiError = toApiError(error);
  if (apiError.status !== 429) return null;
  const seconds = Math.min(apiError.retryAfterSeconds ?? DEFAULT_LOCK_SECONDS, MAX_LOCK_SECONDS);
  return { seconds, minutes: Math.max(1, Math.ceil(seconds / 60)) };
}
