import { useSyncExternalStore } from 'react';

import { COLOR_MODE_STORAGE_KEY, DEFAULT_COLOR_MODE } from '@/config/constants';

export type ColorMode = 'light' | 'dark';

const listeners = new Set<() => void>();

/** The mode on <html>: src/boot.ts puts the stored one there before the first paint. */
function current(): ColorMode {
  const root = document.documentElement.classList;
  if (root.contains('light')) return 'light';
  if (root.contains('dark')) return 'dark';
  return DEFAULT_COLOR_MODE;
}

function apply(mode: ColorMode) {
  const root = document.documentElement;
  root.classList.remove('light', 'dark');
  root.classList.add(mode);
  root.style.colorScheme = mode;
  try {
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, mode);
  } catch {
    // Storage may be blocked: the mode holds until the page is left.
  }
  for (const listener of listeners) listener();
}

/**
 * Puts the stored mode (or the default) on <html> when it has none: index.html and src/boot.ts
 * do it before the first paint; this covers a page rendered without them (tests, prerendering).
 */
export function ensureColorMode() {
  const root = document.documentElement.classList;
  if (root.contains('light') || root.contains('dark')) return;
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(COLOR_MODE_STORAGE_KEY);
  } catch {
    // Storage may be blocked: the default holds.
  }
  const mode: ColorMode = stored === 'light' || stored === 'dark' ? stored : DEFAULT_COLOR_MODE;
  root.add(mode);
  document.documentElement.style.colorScheme = mode;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The colour mode (a class on <html>, kept in localStorage) and its switch. */
export function useColorMode() {
  const colorMode = useSyncExternalStore(subscribe, current, () => DEFAULT_COLOR_MODE);
  return {
    colorMode,
    setColorMode: apply,
    toggleColorMode: () => apply(current() === 'dark' ? 'light' : 'dark'),
  };
}
