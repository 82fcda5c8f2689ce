import type { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, type ReactElement } from 'react';
import { createMemoryRouter, matchRoutes, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { vi } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createRoutes } from '@/app/router';
import { browser } from '@/lib/browser';
import { createQueryClient } from '@/lib/query-client';
import type { User } from '@/types/api-schema';

import { db } from './mocks/db';

type RenderAppOptions = {
  /** Signed in as this user (or as the default test user with `true`); signed out otherwise. */
  user?: User | boolean;
  /** Inside React's StrictMode, as the app runs in development (effects mount twice). */
  strict?: boolean;
};

function renderRoutes(routes: RouteObject[], url: string, { user = false, strict = false }: RenderAppOptions) {
  if (user) {
    db.signedIn = true;
    if (typeof user === 'object') db.user = user;
  }
  // No retries and no freshness window, so each test sees exactly the answers it set up.
  const queryClient = createQueryClient({ queries: { retry: false, staleTime: 0 } });
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const fullNavigations = followFullNavigations(router, queryClient);
  const events = userEvent.setup();
  const app = (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
  const result = render(strict ? <StrictMode>{app}</StrictMode> : app);
  return { ...result, router, queryClient, events, fullNavigations };
}

/**
 * jsdom cannot load a page: a full navigation of the app (`browser.assign`/`replace`) to a page
 * of this site is followed by the test's router instead, so the test sees the page the browser
 * would load; the URLs are recorded, in order. A test that mocked `browser` itself keeps its mock.
 * As a page load, it starts with nothing cached: a query answered before it (the signed-in user
 * of a closed account) would otherwise lead the new page's guards astray, and remount the form a
 * test types into.
 */
function followFullNavigations(router: ReturnType<typeof createMemoryRouter>, queryClient: QueryClient): string[] {
  const urls: string[] = [];
  const follow = (url: string) => {
    urls.push(url);
    const target = new URL(url, window.location.origin);
    if (target.origin !== window.location.origin) return;
    queryClient.clear();
    void router.navigate(`${target.pathname}${target.search}${target.hash}`, { replace: true });
  };
  for (const method of ['assign', 'replace'] as const) {
    if (!vi.isMockFunction(Reflect.get(browser, method))) vi.spyOn(browser, method).mockImplementation(follow);
  }
  return urls;
}

/**
 * Imports the code of the screens at `urls`, as their first visit would. An isolated file
 * otherwise imports each lazily loaded screen inside the wait for it, which a loaded machine can
 * make longer than the wait.
 */
export async function loadScreens(...urls: string[]) {
  const routes = createRoutes();
  const lazy = urls.flatMap((url) => (matchRoutes(routes, url) ?? []).map(({ route }) => route.lazy));
  await Promise.all(lazy.filter((load) => typeof load === 'function').map(async (load) => load()));
}

/** Renders the real route table at `url` inside the app's providers, against the MSW server. */
export function renderApp(url: string, options: RenderAppOptions = {}) {
  return renderRoutes(createRoutes(), url, options);
}

/**
 * Renders one component at `url` (any path matches it) inside the app's providers and a
 * router, without the route table's guards and layouts.
 */
export function renderComponent(ui: ReactElement, { url = '/', ...options }: RenderAppOptions & { url?: string } = {}) {
  return renderRoutes([{ path: '*', element: ui }], url, options);
}

export * from '@testing-library/react';
