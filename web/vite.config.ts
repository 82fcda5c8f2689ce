import { fileURLToPath, URL } from 'node:url';

import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const reactRouterEsm = (file: string, build: 'development' | 'production' = 'development') =>
  fileURLToPath(new URL(`./node_modules/react-router/dist/${build}/${file}`, import.meta.url));

/**
 * react-router's package exports only point at its development build (invariant messages,
 * warnings, dev-only checks); the production build it ships beside it is smaller and is what
 * the bundle should carry. Tests keep the development build (see `test.alias`).
 */
function reactRouterProduction(): Plugin {
  return {
    name: 'kid:react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      if (source === 'react-router') return reactRouterEsm('index.mjs', 'production');
      if (source === 'react-router/dom') return reactRouterEsm('dom-export.mjs', 'production');
      return null;
    },
  };
}

/**
 * index.html preloads the default locale's texts (emitted as a hashed asset, see
 * src/lib/i18n.ts): every page waits for them before it renders, and without the preload their
 * request would only start once the app's code had loaded and run. `as="fetch"` with
 * `crossorigin` (no credentials off-site, as fetch's defaults) so i18n's fetch() reuses it.
 */
function preloadLocale(): Plugin {
  const localeSource = 'public/locales/vi-VN.json';
  return {
    name: 'kid:preload-locale',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const asset = Object.values(bundle ?? {}).find(
          (output) =>
            output.type === 'asset' && output.originalFileNames.some((name) => name.endsWith(localeSource)),
        );
        if (!asset) throw new Error(`kid:preload-locale: the build emitted no asset for ${localeSource}`);
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `/${asset.fileName}`, as: 'fetch', crossorigin: '' },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

export default defineConfig({
  base: '/',
  plugins: [
    reactRouterProduction(),
    react(),
    preloadLocale(),
    // dist/assets/* gets .gz and .br copies (gzip level 9, brotli quality 11) beside each file,
    // so the gateway can send them precompressed; index.html and public/ stay as they are.
    compression({
      include: /^assets\/.+\.(?:js|mjs|css|svg|json|wasm)$/,
      algorithms: ['gzip', 'brotliCompress'],
      skipIfLargerOrEqual: false,
    }),
  ],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  server: {
    port: 5173,
    proxy: {
      // The gateway serves the REST API under /api; KID_API_PROXY points elsewhere.
      '/api': {
        target: process.env.KID_API_PROXY ?? 'http://127.0.0.1:8080',
      },
    },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    rollupOptions: {
      output: {
        manualChunks(id) {
          if (/\/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          return undefined;
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    alias: [
      // Vitest would otherwise load react-router's CommonJS build for 'react-router' and its ES
      // build for 'react-router/dom': two router contexts that cannot see each other.
      { find: /^react-router$/, replacement: reactRouterEsm('index.mjs') },
      { find: /^react-router\/dom$/, replacement: reactRouterEsm('dom-export.mjs') },
    ],
    testTimeout: 15_000,
  },
});
