import type { Location } from 'react-router';

import { env } from '@/config/env';
import { paths } from '@/config/paths';

export type FromState = { from?: Pick<Location, 'pathname' | 'search' | 'hash'> };

/** The location a guard sent the user away from, if the navigation state carries one. */
export function fromLocation(state: unknown): FromState['from'] | undefined {
  if (typeof state !== 'object' || state === null || !('from' in state)) return undefined;
  const from = (state as FromState).from;
  return typeof from?.pathname === 'string' ? from : undefined;
}

/**
 * `next_uri` is only followed to this site or the provider's game site, so a crafted link
 * cannot send a freshly signed-in player to someone else's page.
 */
export function safeNextUri(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw, window.location.origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const allowed = [window.location.origin, new URL(env.GAME_SITE_URL).origin];
    return allowed.includes(url.origin) ? url.href : null;
  } catch {
    return null;
  }
}

/** `from` as a path with its query and fragment, e.g. '/transactions?page=2'. */
export const pathOf = (from: Pick<Location, 'pathname' | 'search' | 'hash'>) => `${from.pathname}${from.search}${from.hash}`;

/**
 * /login for a visitor a guard sends away from `from`: the origin rides along as `next_uri`
 * (a full page load cannot carry router state), so signing in leads back to it; / needs none.
 */
export function loginPathFrom(from: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  const origin = pathOf(from);
  return origin === paths.home ? paths.login : `${paths.login}?next_uri=${encodeURIComponent(origin)}`;
}
