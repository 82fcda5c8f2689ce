#!/usr/bin/env node
// Prerenders the public pages (run by `npm run build`, after the browser's build and the
// server-side one, `vite build --ssr src/app/prerender.tsx --outDir dist-ssr`). Each page is
// dist/index.html with the page's HTML in #root, marked `data-prerendered` so the app hydrates it
// (src/app/render.tsx), written to dist/pages/<path>/index.html, which the gateway serves for
// <path> (gateway/src/web.rs). The page shows, styled, before any script has run.
// React's production build, as the browser gets (it renders the same HTML, with fewer checks).
process.env.NODE_ENV ??= 'production';

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The public pages: sign-in, sign-up and account recovery (src/config/paths.ts). */
export const PRERENDERED_PATHS = [
  '/login',
  '/register',
  '/recovery',
  '/recovery/forgot-password',
  '/recovery/forgot-username',
];

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(webDir, 'dist');
const pagesDir = join(distDir, 'pages');
const ROOT = /<div id="root">[\s\S]*<\/div>(\s*<\/body>)/;

const shell = readFileSync(join(distDir, 'index.html'), 'utf8');
if (!ROOT.test(shell)) throw new Error('prerender: dist/index.html has no #root before </body>');
const { prerender } = await import(pathToFileURL(join(webDir, 'dist-ssr/prerender.js')).href);

rmSync(pagesDir, { recursive: true, force: true });
for (const path of PRERENDERED_PATHS) {
  const body = await prerender(`http://127.0.0.1${path}`);
  if (!body.includes('<h1')) throw new Error(`prerender: ${path} rendered no heading`);
  const page = shell.replace(ROOT, (_match, end) => `<div id="root" data-prerendered="">${body}</div>${end}`);
  const file = join(pagesDir, path, 'index.html');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, page);
  console.log(`prerender: ${path} -> ${file.slice(webDir.length + 1)} (${Buffer.byteLength(page)} bytes)`);
}
