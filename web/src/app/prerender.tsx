import { QueryClient } from '@tanstack/react-query';
import i18n, { type ResourceKey } from 'i18next';
import { StrictMode } from 'react';
import { prerender as prerenderToStream } from 'react-dom/static';
import { initReactI18next } from 'react-i18next';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';

import { DEFAULT_LOCALE } from '@/config/constants';
import { i18nOptions } from '@/lib/i18n';

import { AppProvider } from './provider';
import { createRoutes } from './router';

/**
 * The build's server side (web/scripts/prerender.mjs, after `vite build --ssr`): the HTML of a
 * public page, as the browser's first render draws it (same providers, same routes, signed out),
 * so the page shows before its code has loaded and React hydrates it (src/app/render.tsx).
 */
export async function prerender(url: string, texts: ResourceKey): Promise<string> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({ ...i18nOptions, resources: { [DEFAULT_LOCALE]: { translation: texts } } });
  }
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
