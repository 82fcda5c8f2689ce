import { createBrowserRouter } from 'react-router';

import type { QueryClient } from '@tanstack/react-query';

import { productsQueryOptions } from '@/features/recharge/api/get-products';
import { transactionHistoryQueryOptions } from '@/features/transactions/api/get-transaction-history';
import { userQueryOptions } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';

import { createRoutes, GUEST_ROUTE_IDS, USER_ROUTE_IDS } from './router';

export type DataRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The data a signed-in page shows first, by route id (src/app/router.tsx): asked for beside
 * GET /me as the app starts, not once the page has rendered and its queries mount.
 */
const PAGE_DATA: Record<string, (queryClient: QueryClient) => Promise<void>> = {
  // Every /recharge page lists the games.
  recharge: (queryClient) => queryClient.prefetchQuery(productsQueryOptions()),
  transactions: (queryClient) => queryClient.prefetchQuery(transactionHistoryQueryOptions()),
};

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
 * Starts at once, side by side, everything the first page waits for: the route's lazy modules and, on the signed-in pages, the current user (GET /me), which the
 * guard would otherwise only ask for once it had rendered (sign-in and sign-up ask for it too,
 * but show without waiting for it), and the page's own data (`PAGE_DATA`), which it shows
 * when it comes. `ready` resolves when all of them
 * have answered (or failed: the page then shows the failure as it always did), so the first
 * render is the whole page, over the static shell of index.html, and not a blank page that
 * fills in piece by piece.
 */
export function startApp() {
  const queryClient = createQueryClient();
  const router = createBrowserRouter(createRoutes());
  const matches = (ids: readonly string[]) => router.state.matches.some((match) => ids.includes(match.route.id));
  // Sign-in and sign-up show at once and leave if the answer says signed in.
  const user = matches([...USER_ROUTE_IDS, ...GUEST_ROUTE_IDS])
    ? queryClient.prefetchQuery(userQueryOptions())
    : undefined;
  for (const match of router.state.matches) void PAGE_DATA[match.route.id]?.(queryClient);
  const ready = Promise.allSettled([routerReady(router), matches(USER_ROUTE_IDS) ? user : undefined]).then(
    () => undefined,
  );
  return { router, queryClient, ready };
}
