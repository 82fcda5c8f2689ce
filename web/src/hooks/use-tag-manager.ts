import { useEffect } from 'react';

import { env } from '@/config/env';

/**
 * Loads Google Tag Manager for the container `containerId` (VITE_GTM_ID) once the app has
 * rendered, never before: the snippet's code is a chunk of its own, imported from this effect,
 * and gtm.js loads async. Without a container nothing is imported or added.
 */
export function useTagManager(containerId: string = env.GTM_ID) {
  useEffect(() => {
    if (!containerId) return;
    // A chunk that fails to load (offline for a moment) costs the analytics, not the page.
    import('@/lib/tag-manager').then(
      ({ injectTagManager }) => injectTagManager(containerId),
      () => undefined,
    );
  }, [containerId]);
}
