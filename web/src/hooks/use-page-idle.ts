import { useEffect, useState } from 'react';

/** How long an idle callback may wait for a quiet moment before it runs anyway. */
const IDLE_TIMEOUT_MS = 5_000;

/**
 * True once the page has finished loading (the window's load event) and the browser then has
 * a quiet moment (requestIdleCallback; a task later where it is missing, as in Safari): for
 * what the player does not need to start using the page, such as third-party widgets.
 * With `enabled` false it never becomes true and sets nothing up.
 */
export function usePageIdle(enabled = true): boolean {
  const [idle, setIdle] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    let cancelIdle: (() => void) | undefined;
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') {
        const handle = window.requestIdleCallback(() => setIdle(true), { timeout: IDLE_TIMEOUT_MS });
        cancelIdle = () => window.cancelIdleCallback(handle);
      } else {
        const handle = window.setTimeout(() => setIdle(true), 0);
        cancelIdle = () => window.clearTimeout(handle);
      }
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
    return () => {
      window.removeEventListener('load', whenIdle);
      cancelIdle?.();
    };
  }, [enabled]);

  return idle;
}
