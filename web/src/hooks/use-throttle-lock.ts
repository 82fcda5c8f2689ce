import { useEffect, useState } from 'react';

import type { ThrottleLock } from '@/lib/throttle-lock';

/**
 * The lock after too many wrong guesses (see `throttleLockOf`), lifted by itself once its time
 * is up. Set it from a failed call's error; null while the form may be sent.
 */
export function useThrottleLock() {
  const [lock, setLock] = useState<ThrottleLock | null>(null);
  useEffect(() => {
    if (!lock) return;
    const timer = window.setTimeout(() => setLock(null), lock.seconds * 1000);
    return () => window.clearTimeout(timer);
  }, [lock]);
  return [lock, setLock] as const;
}
