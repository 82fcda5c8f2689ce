#!/usr/bin/env node
// Size budget for the JavaScript a browser downloads before a route renders (run after
// `npm run build`). A route's initial JS is the entry chunk, every chunk index.html loads
// (script and modulepreload), their static imports, and the lazy route modules the route
// matches with their static imports (Vite preloads those with the module). Sizes come from
// the files in dist/: raw, gzip (level 9) and brotli (quality 11). /login and /recharge are
// held to their budgets, and the app's CSS to its own; the staff console is printed for information.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

/**
 * What a route may load, gzip, before it renders, and the CSS of the whole app: the build fails
 * above a budget. Each budget is the last measured figure rounded up to the next 5 KB and
 * ratchets down as the app gets leaner; the targets are issue 46's. The steps so far (/login):
 * 235 KB with axios, 220 KB with openapi-fetch, 185 KB once Chakra UI's runtime (its style
 * engine, Emotion and the theme built in the browser, 68 KB) gave way to Panda CSS's static CSS
 * and Ark UI's widgets (measured 180.2 KB on 2026-12-07; /recharge 198.7 KB; the CSS 15.8 KB),
 * 170 KB once i18next (with react-i18next, 17 KB) gave way to Paraglide's compiled messages
 * (measured 165.8 KB on 2026-12-08; /recharge 184.3 KB).
 * What /login still loads, gzip, by chunk (2026-12-08): react-dom with react, scheduler and
 * react-router 86.7 KB (react-dom alone some 55, react-router 27); react-query, openapi-fetch
 * and Panda's runtime for style props (it composes class names; the CSS is static) 28.0 KB;
 * react-hook-form with Ark's field 16.2 KB; the router table with lucide's icons 8.5 KB; Ark's
 * checkbox and its Zag machine 8.4 KB; the rest, the app's own modules and their texts, 18 KB.
 * React, its router, react-hook-form and react-query alone come to some 105 KB: the 120 KB
 * target leaves 15 KB for everything else, which this stack does not reach.
 */
const LOGIN_BUDGET_KB = 170;
const RECHARGE_BUDGET_KB = 190;
const CSS_BUDGET_KB = 20;
const BUDGETS = {
  '/login': { budget: LOGIN_BUDGET_KB * 1024, target: 120 * 1024 },
  '/recharge': { budget: RECHARGE_BUDGET_KB * 1024, target: 170 * 1024 },
};
const CSS_BUDGET = { budget: CSS_BUDGET_KB * 1024, target: 20 * 1024 };

/**
 * The lazy route modules each measured URL matches, outermost first, as `src/app/router.tsx`
 * imports them (`import('@/…')`). The script checks each against the router source and the
 * build manifest and fails when one is missing, so a moved or renamed screen cannot drop out
 * of the measurement unnoticed.
 */
const ROUTES = [
  {
    path: '/login',
    modules: ['src/features/auth/components/login-screen.tsx'],
  },
  {
    // The staff console: one lazy route module (its pages load from it), for information.
    path: '/staff',
    modules: ['src/features/staff/components/staff-console.tsx'],
  },
  {
    path: '/recharge',
    modules: [
      'src/components/layouts/shell-layout.tsx',
      'src/features/recharge/components/recharge-layout.tsx',
      'src/features/recharge/components/recharge-index.tsx',
    ],
  },
];

/**
 * Modules that load only once the page is up, whatever the route: the social chat widget (when
 * configured, once the page is idle) and the tag manager's snippet (when configured, after the
 * first render). Each must be a chunk of its own that no measured route loads before it renders.
 */
const DEFERRED_MODULES = ['src/components/chat/messenger-chat.tsx', 'src/lib/tag-manager.ts'];

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(webDir, 'dist');
const manifestPath = join(distDir, '.vite', 'manifest.json');
const indexHtmlPath = join(distDir, 'index.html');
const routerPath = join(webDir, 'src', 'app', 'router.tsx');

function fail(message) {
  console.error(`bundle-budget: ${message}`);
  process.exit(2);
}

for (const file of [manifestPath, indexHtmlPath]) {
  if (!existsSync(file)) fail(`${file} is missing; run \`npm run build\` first (build.manifest must be on).`);
}

/** @type {Record<string, {file: string, src?: string, isEntry?: boolean, isDynamicEntry?: boolean, imports?: string[], dynamicImports?: string[]}>} */
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const indexHtml = readFileSync(indexHtmlPath, 'utf8');
const routerSource = readFileSync(routerPath, 'utf8');

const entryKeys = Object.keys(manifest).filter((key) => manifest[key].isEntry);
if (entryKeys.length !== 1 || entryKeys[0] !== 'index.html') {
  fail(`expected index.html as the only entry in the manifest, found: ${entryKeys.join(', ') || 'none'}`);
}
const entryKey = entryKeys[0];

/** The manifest keys of `keys` and everything they import statically. */
function staticClosure(keys) {
  const seen = new Set();
  const stack = [...keys];
  while (stack.length > 0) {
    const key = stack.pop();
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) fail(`the manifest has no entry ${key}`);
    seen.add(key);
    stack.push(...(chunk.imports ?? []));
  }
  return seen;
}

/** Files index.html loads by itself: its module script and modulepreload links. */
function htmlScripts() {
  const files = new Set();
  const tag = /<(script|link)\b[^>]*>/g;
  for (const [element, name] of indexHtml.matchAll(tag)) {
    const isScript = name === 'script' && /\btype=["']module["']/.test(element);
    const isPreload = name === 'link' && /\brel=["']modulepreload["']/.test(element);
    if (!isScript && !isPreload) continue;
    const url = /\b(?:src|href)=["']([^"']+)["']/.exec(element)?.[1];
    if (!url || /^[a-z]+:\/\//i.test(url)) continue;
    files.add(url.replace(/^\//, ''));
  }
  return files;
}

const fileToKey = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
const entryClosure = staticClosure([entryKey]);
const htmlFiles = htmlScripts();
if (!htmlFiles.has(manifest[entryKey].file)) {
  fail(`index.html does not load the entry chunk ${manifest[entryKey].file}`);
}
for (const file of htmlFiles) {
  const key = fileToKey.get(file);
  if (!key) fail(`index.html loads ${file}, which the manifest does not know`);
  for (const k of staticClosure([key])) entryClosure.add(k);
}

/** Every dynamic import reachable from the entry, i.e. the modules the router can load lazily. */
const lazyModules = new Set(
  [...entryClosure].flatMap((key) => manifest[key].dynamicImports ?? []),
);

function routeModuleKey(module) {
  const specifier = `@/${module.replace(/^src\//, '').replace(/\.tsx?$/, '')}`;
  if (!routerSource.includes(`import('${specifier}')`)) {
    fail(`src/app/router.tsx does not import('${specifier}'); update ROUTES in scripts/bundle-budget.mjs`);
  }
  const chunk = manifest[module];
  if (!chunk) fail(`the manifest has no chunk for ${module}; update ROUTES in scripts/bundle-budget.mjs`);
  if (!chunk.isDynamicEntry || !lazyModules.has(module)) {
    fail(`${module} is not loaded lazily from the entry; update ROUTES in scripts/bundle-budget.mjs`);
  }
  return module;
}

const sizeCache = new Map();
function sizes(file) {
  if (!sizeCache.has(file)) {
    const bytes = readFileSync(join(distDir, file));
    sizeCache.set(file, {
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 },
      }).length,
    });
  }
  return sizeCache.get(file);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`.padStart(11);

function report(route) {
  const routeKeys = route.modules.map(routeModuleKey);
  const keys = new Set([...entryClosure, ...staticClosure(routeKeys)]);
  const files = [...new Set([...keys].map((key) => manifest[key].file))].filter((file) => file.endsWith('.js'));
  const rows = files
    .map((file) => ({ file, ...sizes(file) }))
    .sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce(
    (sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip, brotli: sum.brotli + row.brotli }),
    { raw: 0, gzip: 0, brotli: 0 },
  );
  const width = Math.max(...rows.map((row) => row.file.length), 'total'.length);
  console.log(`\n${route.path}: ${rows.length} JS files (route modules: ${route.modules.join(', ')})`);
  console.log(`  ${'file'.padEnd(width)} ${'raw'.padStart(11)} ${'gzip'.padStart(11)} ${'brotli'.padStart(11)}`);
  for (const row of rows) {
    console.log(`  ${row.file.padEnd(width)} ${kb(row.raw)} ${kb(row.gzip)} ${kb(row.brotli)}`);
  }
  console.log(`  ${'total'.padEnd(width)} ${kb(total.raw)} ${kb(total.gzip)} ${kb(total.brotli)}`);
  for (const module of DEFERRED_MODULES) {
    if (!manifest[module]?.isDynamicEntry) fail(`${module} is not a lazily loaded chunk of its own`);
    if (keys.has(module)) fail(`${route.path} loads ${module} before it renders`);
  }
  return total;
}

// `--json <file>`: also write each route's totals (bytes), for the benchmark's report.
const jsonFlag = process.argv.indexOf('--json');
const jsonPath = jsonFlag > 0 ? process.argv[jsonFlag + 1] : undefined;
const totals = {};

let overBudget = false;
function judge(name, gzip, { budget, target }) {
  const verdict = gzip <= budget ? 'within' : 'OVER';
  console.log(
    `  budget: ${gzip} B gzip ${verdict} the ${budget} B (${budget / 1024} KB) budget;` +
      ` target ${target / 1024} KB ${gzip <= target ? 'reached' : 'not reached'}`,
  );
  if (gzip > budget) {
    console.error(`bundle-budget: ${name} is ${gzip} B gzip, over its ${budget / 1024} KB budget.`);
    overBudget = true;
  }
}
for (const route of ROUTES) {
  const total = report(route);
  totals[route.path] = total;
  if (BUDGETS[route.path]) judge(route.path, total.gzip, BUDGETS[route.path]);
}
for (const path of Object.keys(BUDGETS)) {
  if (!ROUTES.some((route) => route.path === path)) fail(`no route ${path} in ROUTES`);
}

// The app's CSS, all of it (Panda writes one file of atomic classes for every screen).
const cssFiles = Object.values(manifest)
  .flatMap((chunk) => chunk.css ?? [])
  .filter((file, index, all) => all.indexOf(file) === index);
if (cssFiles.length === 0) fail('the manifest names no CSS file');
const css = cssFiles.reduce(
  (sum, file) => {
    const size = sizes(file);
    return { raw: sum.raw + size.raw, gzip: sum.gzip + size.gzip, brotli: sum.brotli + size.brotli };
  },
  { raw: 0, gzip: 0, brotli: 0 },
);
console.log(`
CSS of the whole app: ${cssFiles.join(', ')}`);
console.log(`  total ${kb(css.raw)} raw ${kb(css.gzip)} gzip ${kb(css.brotli)} brotli`);
judge('the CSS', css.gzip, CSS_BUDGET);
totals.css = css;

if (jsonPath) {
  const budgets = { ...BUDGETS, css: CSS_BUDGET };
  writeFileSync(jsonPath, JSON.stringify({ budgets, routes: totals }, null, 2));
}

if (overBudget) process.exit(1);
