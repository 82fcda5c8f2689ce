import {
  ERROR_RETRY_INTERVAL_MS,
  LOADING_SLOW_MS,
  SLOW_CONNECTION_TYPES,
  SLOW_ERROR_RETRY_INTERVAL_MS,
  SLOW_LOADING_SLOW_MS,
} from '@/config/constants';

type NetworkInformation = { effectiveType?: string; saveData?: boolean };

/**
 * True on a slow connection as the Network Information API reports it: a 3G-class or slower
 * effective type, or Save-Data asked for. Browsers without the API (Firefox, Safari) count as fast.
 */
export function isSlowConnection(): boolean {
  const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  if (!connection) return false;
  return connection.saveData === true || SLOW_CONNECTION_TYPES.includes(connection.effectiveType ?? '');
}

/** How long a failed load waits before it is asked again (spec section 9). */
export function errorRetryIntervalMs(slow = isSlowConnection()): number {
  return slow ? SLOW_ERROR_RETRY_INTERVAL_MS : ERROR_RETRY_INTERVAL_MS;
}

/** How long a first load may run before the player is told it is slow (spec section 9). */
export function loadingSlowAfterMs(slow = isSlowConnection()): number {
  return slow ? SLOW_LOADING_SLOW_MS : LOADING_SLOW_MS;
}
