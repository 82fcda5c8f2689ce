import type { QueryClient } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

import { hydrationStarts } from '@/lib/hydration-typing';

import { App } from './index';
import type { DataRouter } from './start';

/** The attribute on #root of a page the build prerendered (web/scripts/prerender.mjs). */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/**
 * Renders the app into #root. A prerendered page (sign-in, sign-up, recovery) is hydrated: its
 * HTML already shows the page, React takes it over, keeping what the visitor typed meanwhile.
 * Any other page is rendered over the static shell in a transition, so React renders the first
 * page in slices, yielding to the browser between them, rather than in one long task; the shell
 * stays until it commits.
 */
export function renderApp(root: HTMLElement, router: DataRouter, queryClient: QueryClient) {
  const app = (
    <StrictMode>
      <App router={router} queryClient={queryClient} />
    </StrictMode>
  );
  if (root.hasAttribute(PRERENDERED_ATTRIBUTE)) {
    hydrationStarts();
    hydrateRoot(root, app);
  } else {
    startTransition(() => createRoot(root).render(app));
  }
  // After the first render, and not preloaded with the app: see lib/rum.ts.
  void import('@/lib/rum').then(({ reportWebVitals }) => reportWebVitals());
}
