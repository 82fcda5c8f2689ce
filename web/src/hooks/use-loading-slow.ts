import { useEffect, useState } from 'react';

import { loadingSlowAfterMs } from '@/lib/connection';

/**
 * True once the component has been mounted for the spec's loading-slow time (3 s, 5 s on a slow
 * connection; section 9): for what shows only while something loads, such as the page fallback.
 */
export function useLoadingSlow(): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setSlow(true), loadingSlowAfterMs());
    return () => window.clearTimeout(timer);
  }, []);
  return slow;
}
