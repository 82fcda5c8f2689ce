import type { QueryClient } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './index';
import type { DataRouter } from './start';

/**
 * Renders the app over the static shell in #root: in a transition, so React renders the first
 * page in slices, yielding to the browser between them, rather than in one long task; the shell
 * stays until it commits.
 */
export function renderApp(root: HTMLElement, router: DataRouter, queryClient: QueryClient) {
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App router={router} queryClient={queryClient} />
      </StrictMode>,
    ),
  );
  // After the first render, and not preloaded with the app: see lib/rum.ts.
  void import('@/lib/rum').then(({ reportWebVitals }) => reportWebVitals());
}
