import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

import { paraglideVitePlugin } from '@inlang/paraglide-js';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { transformWithEsbuild, type Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

const TESTS = 'src/**/*.test.{ts,tsx}';
/**
 * The test files that mock a module (`vi.mock`), or that watch a module load (they say
 * `@isolated-module-graph`: a lazy screen shows its fallback only while its code is not yet
 * imported, which a shared worker may have done for an earlier file): they run isolated, see
 * `test.projects`.
 */
const ISOLATED_TESTS = readdirSync(new URL('./src', import.meta.url), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .filter((file) =>
    /\bvi\.(mock|doMock)\(|@isolated-module-graph/.test(
      readFileSync(new URL(`./src/${file}`, import.meta.url), 'utf8'),
    ),
  )
  .map((file) => `src/${file}`);

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
 * src/main.tsx imports the app in steps (dynamic imports, one task each); index.html
 * modulepreloads all of their code so it still loads at once, beside the entry, and so
 * scripts/bundle-budget.mjs counts it as what every page loads. At low priority: the page's
 * first paint (the static shell) needs none of it, and the boot script and the entry go first.
 */
function preloadStartup(): Plugin {
  return {
    name: 'kid:preload-startup',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const chunks = new Map(
          Object.values(bundle ?? {})
            .filter((output) => output.type === 'chunk')
            .map((chunk) => [chunk.fileName, chunk]),
        );
        const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
        if (!entry) throw new Error('kid:preload-startup: no entry chunk');
        const loaded = new Set<string>();
        const visit = (file: string) => {
          if (loaded.has(file)) return;
          loaded.add(file);
          for (const imported of chunks.get(file)?.imports ?? []) visit(imported);
        };
        visit(entry.fileName);
        const before = new Set(loaded);
        for (const file of entry.dynamicImports) visit(file);
        return [...loaded]
          .filter((file) => !before.has(file))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}`, fetchpriority: 'low' },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

const webPath = (path: string) => fileURLToPath(new URL(`./${path}`, import.meta.url));

/**
 * `{{t:key}}` in index.html (the static shell's texts) becomes the default locale's text for
 * `key`, HTML-escaped, so the shell says exactly what the app will.
 */
function localeTextsInHtml(): Plugin {
  return {
    name: 'kid:locale-texts-in-html',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        const texts: unknown = JSON.parse(readFileSync(webPath('messages/vi-VN.json'), 'utf8'));
        return html.replace(/\{\{t:([\w.]+)\}\}/g, (_match, key: string) => {
          const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], texts);
          if (typeof text !== 'string')
            throw new Error(`kid:locale-texts-in-html: no text ${key} in messages/vi-VN.json`);
          return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
        });
      },
    },
  };
}

const shellLayout = 'src/components/layouts/shell-layout.tsx';

/**
 * The lazy route modules (src/app/router.tsx) each URL loads, outermost first, as patterns the
 * boot script matches (case-insensitive, an optional trailing slash, as the router does).
 * A URL missing here still works; its modules just start loading once the app has run.
 */
const ROUTE_MODULES: [pattern: string, modules: string[]][] = [
  ['^/login/?$', ['src/features/auth/components/login-screen.tsx']],
  ['^/register/?$', ['src/features/auth/components/register-screen.tsx']],
  ['^/staff(/.*)?$', ['src/features/staff/components/staff-console.tsx']],
  ['^/?$', [shellLayout, 'src/features/profile/components/profile-screen.tsx']],
  ['^/security/?$', [shellLayout, 'src/features/security/components/security-screen.tsx']],
  ['^/transactions/?$', [shellLayout, 'src/features/transactions/components/transactions-screen.tsx']],
  [
    '^/recharge/?$',
    [
      shellLayout,
      'src/features/recharge/components/recharge-layout.tsx',
      'src/features/recharge/components/recharge-index.tsx',
    ],
  ],
  [
    '^/recharge/[^/]+/?$',
    [
      shellLayout,
      'src/features/recharge/components/recharge-layout.tsx',
      'src/features/recharge/components/coin-recharge-screen.tsx',
    ],
  ],
  [
    '^/payment/?$',
    [
      shellLayout,
      'src/features/payment/components/payment-layout.tsx',
      'src/features/payment/components/payment-index.tsx',
    ],
  ],
  ...(['bank-transfer', 'e-wallet', 'card'] as const).map((method): [string, string[]] => [
    `^/payment/${method}/?$`,
    [
      shellLayout,
      'src/features/payment/components/payment-layout.tsx',
      `src/features/payment/components/${method}-screen.tsx`,
    ],
  ]),
];

/**
 * src/boot.ts, emitted as a hashed asset that index.html runs before anything else (a classic
 * script, so the page's first paint already shows what it chooses; it is small and cached for
 * good),
 * with the module files (and their static imports, less what index.html loads anyway) of each
 * URL in ROUTE_MODULES filled in.
 */
function bootScript(): Plugin {
  // index.html's transform knows the chunks and names the file; the bundle gets it afterwards.
  let boot: { fileName: string; source: string } | undefined;
  return {
    name: 'kid:boot-script',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler() {
        if (!boot) this.error('index.html was not transformed');
        this.emitFile({ type: 'asset', fileName: boot.fileName, source: boot.source });
      },
    },
    transformIndexHtml: {
      order: 'post',
      async handler(_html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter((output) => output.type === 'chunk');
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!entry) throw new Error('kid:boot-script: no entry chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const closure = (files: string[], into = new Set<string>()) => {
          for (const file of files) {
            if (into.has(file)) continue;
            into.add(file);
            closure(byFile.get(file)?.imports ?? [], into);
          }
          return into;
        };
        const loadedByHtml = closure([entry.fileName]);
        // Files once, routes as indexes into them: the same modules recur on many routes.
        const files: string[] = [];
        const indexOf = (file: string) => {
          if (!files.includes(file)) files.push(file);
          return files.indexOf(file);
        };
        const routes = ROUTE_MODULES.map(([pattern, modules]): [string, number[]] => {
          const routeFiles = modules.map((module) => {
            const chunk = chunks.find((c) => c.isDynamicEntry && c.facadeModuleId === webPath(module));
            if (!chunk) throw new Error(`kid:boot-script: ${module} is not a lazily loaded module of the build`);
            return chunk.fileName;
          });
          return [pattern, [...closure(routeFiles)].filter((file) => !loadedByHtml.has(file)).map(indexOf)];
        });
        const { code } = await transformWithEsbuild(readFileSync(webPath('src/boot.ts'), 'utf8'), 'boot.ts', {
          minify: true,
          target: 'es2019',
        });
        const source = `(()=>{const BOOT_FILES=${JSON.stringify(files.map((file) => `/${file}`))},BOOT_ROUTES=${JSON.stringify(routes)};${code.trim()}})();\n`;
        const hash = createHash('sha256').update(source).digest('base64url').slice(0, 8);
        boot = { fileName: `assets/boot-${hash}.js`, source };
        return [
          {
            tag: 'script',
            attrs: { src: `/${boot.fileName}` },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}

/**
 * Only in the browser's build: the server-side build (`vite build --ssr`, the prerendering of
 * the public pages, scripts/prerender.mjs) has no index.html and ships nothing to browsers.
 */
function browserBuildOnly(plugins: Plugin | Plugin[]): Plugin[] {
  return [plugins].flat().map((plugin) => ({
    ...plugin,
    apply: (_config, { command, isSsrBuild }) => command === 'build' && !isSsrBuild,
  }));
}

export default defineConfig({
  base: '/',
  plugins: [
    reactRouterProduction(),
    react(),
    // The messages (messages/*.json) as typed functions in src/paraglide, recompiled when they
    // change; the options are in project.inlang/paraglide.config.js.
    paraglideVitePlugin({ project: './project.inlang' }),
    ...browserBuildOnly([preloadStartup(), bootScript()]),
    localeTextsInHtml(),
    // dist/assets/* gets .gz and .br copies (gzip level 9, brotli quality 11) beside each file,
    // so the gateway can send them precompressed; index.html and public/ stay as they are.
    ...browserBuildOnly(
      compression({
        include: /^assets\/.+\.(?:js|mjs|css|svg|json|wasm)$/,
        algorithms: ['gzip', 'brotliCompress'],
        skipIfLargerOrEqual: false,
      }),
    ),
  ],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Panda's generated styling code (`panda codegen`, panda.config.ts).
      'styled-system': fileURLToPath(new URL('./styled-system', import.meta.url)),
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
    modulePreload: {
      // Vite lists, beside each lazy import, the files it needs, to preload them with it. The
      // staff console's list (some 30 files players never load) would sit in the router's code
      // that every page loads; a /staff page preloads them from the boot script instead
      // (ROUTE_MODULES), and opening the console from another page loads them after its chunk.
      resolveDependencies: (file, deps) => (/\/staff-console-[\w-]+\.js$/.test(file) ? [] : deps),
    },
    // Terser (default options, none of its unsafe ones) rather than esbuild: its output is some
    // 3 % smaller after gzip, about 7 KB of what /login loads before it renders (see
    // scripts/bundle-budget.mjs), for a build that takes some 15 s longer.
    minify: 'terser',
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
    restoreMocks: true,
    alias: [
      // Vitest would otherwise load react-router's CommonJS build for 'react-router' and its ES
      // build for 'react-router/dom': two router contexts that cannot see each other.
      { find: /^react-router$/, replacement: reactRouterEsm('index.mjs') },
      { find: /^react-router\/dom$/, replacement: reactRouterEsm('dom-export.mjs') },
    ],
    testTimeout: 30_000,
    // Most files share their worker's jsdom and module graph (isolate: false): a file no longer
    // sets up an environment and imports React, Chakra, MSW and the app afresh, a third of the
    // run before. The setup file resets, after each test, what outlives it (MSW handlers, fake
    // databases, cookies, storage, toasts). A file that mocks a module would leave its mock to
    // the files after it, or get modules an earlier file imported without the mock: those run
    // isolated as before.
    // Measured on a 2-core machine, under a cargo build: 22m24s before, 15m07s after (the
    // setup, import and environment phases from 382s to 61s of worker time summed).
    // The default pool (forks) and worker count (cores - 1: one here) stay: threads were no
    // faster, and a second worker on 2 cores was 9 % faster but made lazy routes and dialogs
    // miss the 5 s waitFor and 15 s test timeouts.
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED_TESTS, isolate: true } },
      {
        extends: true,
        test: {
          name: 'shared',
          include: [TESTS],
          exclude: [...configDefaults.exclude, ...ISOLATED_TESTS],
          isolate: false,
        },
      },
    ],
  },
});
