import { useCallback, useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('scroll', onChange, { passive: true });
  return () => window.removeEventListener('scroll', onChange);
};

/** True once the window has scrolled at least `threshold` pixels down. */
export function useWindowScrolledPast(threshold: number): boolean {
  const getSnapshot = useCallback(() => window.scrollY >= threshold, [threshold]);
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}
