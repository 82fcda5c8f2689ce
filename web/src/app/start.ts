import { createBrowserRouter } from 'react-router';

import { userQueryOptions } from '@/lib/auth';
import { initI18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';

import { createRoutes, USER_ROUTE_IDS } from './router';

export type DataRouter = ReturnType<typeof createBrowserRouter>;

/** Resolves once the router has loaded the lazy route modules of the URL it started at. */
function routerReady(router: DataRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Starts at once, side by side, everything the first page waits for: the locale texts, the
 * route's lazy modules and, on the pages behind a guard, the current user (GET /me), which the
 * guard would otherwise only ask for once it had rendered. `ready` resolves when all of them
 * have answered (or failed: the page then shows the failure as it always did), so the first
 * render is the whole page, over the static shell of index.html, and not a blank page that
 * fills in piece by piece.
 */
export function startApp() {
  const i18nReady = initI18n();
  const queryClient = createQueryClient();
  const router = createBrowserRouter(createRoutes());
  const needsUser = router.state.matches.some((match) => USER_ROUTE_IDS.includes(match.route.id));
  const ready = Promise.allSettled([
    i18nReady,
    routerReady(router),
    needsUser ? queryClient.prefetchQuery(userQueryOptions()) : undefined,
  ]).then(() => undefined);
  return { router, queryClient, ready };
}
