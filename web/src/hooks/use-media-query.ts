import { useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches now, kept current as the window changes (a rotated phone,
 * say). Use only where the markup itself differs (a list on a phone, a table on a desktop);
 * where only styles differ, responsive style props do it without JavaScript.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below the `md` breakpoint (48rem, Chakra's and panda.config.ts's): a phone. */
export const PHONE_QUERY = '(max-width: 47.98rem)';
