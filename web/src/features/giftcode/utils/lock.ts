import { toApiError } from '@/lib/api-client';

/** How long the form stays locked after a 429 that sent no (valid) Retry-After. */
export const DEFAULT_LOCK_SECONDS = 60;

/** setTimeout's longest delay is about 24.8 days; no lock is meant to last anywhere near it. */
const MAX_LOCK_SECONDS = 24 * 60 * 60;

/** A lock after too many wrong codes: for how long, and the minutes the message names. */
export type GiftcodeLock = { seconds: number; minutes: number };

/**
 * The lock a failed redemption imposes: on a 429, for the answer's Retry-After (seconds), the
 * message naming ceil(Retry-After / 60) minutes, at least 1. Null for any other failure.
 */
export function lockOf(error: unknown): GiftcodeLock | null {
  const apiError = toApiError(error);
  if (apiError.status !== 429) return null;
  const seconds = Math.min(apiError.retryAfterSeconds ?? DEFAULT_LOCK_SECONDS, MAX_LOCK_SECONDS);
  return { seconds, minutes: Math.max(1, Math.ceil(seconds / 60)) };
}
