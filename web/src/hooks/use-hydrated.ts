import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False while React renders on the server (the prerendered public pages, src/app/prerender.tsx)
 * and while it hydrates that HTML, true afterwards and in any page rendered in the browser from
 * the start. What the browser alone can know (its WebAuthn support, the signed-in user) waits for
 * it, so the first render in the browser matches the HTML and hydration warns of nothing.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
