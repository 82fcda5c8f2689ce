import type { Location } from 'react-router';

import { staffPaths } from '../config/paths';

type Place = Pick<Location, 'pathname' | 'search' | 'hash'>;

/**
 * `next_uri` of the sign-in page is only followed to another page of the console on this site,
 * so a crafted link cannot send a member who just signed in elsewhere.
 */
export function safeStaffNext(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw, window.location.origin);
    if (url.origin !== window.location.origin) return null;
    if (!/^\/staff(\/|$)/i.test(url.pathname) || url.pathname.replace(/\/$/, '') === staffPaths.signIn) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** The sign-in page for a visitor the guard sends away from `from`, which it leads back to. */
export function signInPathFrom(from: Place): string {
  const origin = `${from.pathname}${from.search}${from.hash}`;
  return origin === staffPaths.home ? staffPaths.signIn : `${staffPaths.signIn}?next_uri=${encodeURIComponent(origin)}`;
}
