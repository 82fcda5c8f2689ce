import { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerender as prerenderToStream } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';

import { AppProvider } from './provider';
import { createRoutes } from './router';

/**
 * The build's server side (web/scripts/prerender.mjs, after `vite build --ssr`): the HTML of a
 * public page, as the browser's first render draws it (same providers, same routes, signed out),
 * so the page shows before its code has loaded and React hydrates it (src/app/render.tsx).
 */
export async function prerender(url: string): Promise<string> {
  const handler = createStaticHandler(createRoutes());
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error(`prerender: ${url} answered ${context.status}`);
  if (context.statusCode !== 200) throw new Error(`prerender: ${url} is a ${context.statusCode}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // Queries stay pending on the server (no request is made): the pages show as signed out.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const { prelude } = await prerenderToStream(
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProvider>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
