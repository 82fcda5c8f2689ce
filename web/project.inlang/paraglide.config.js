// The one set of options for Paraglide's compiler, read by its CLI (`npm run messages`) and its
// Vite plugin (vite.config.ts): the messages (../messages/) become typed functions under
// src/paraglide/, one module each, so a page's code carries only the texts it shows.
import { defineConfig } from '@inlang/paraglide-js';

export default defineConfig({
  outdir: './src/paraglide',
  // One locale, chosen at build time: no cookie, URL or storage lookups at run time.
  strategy: ['baseLocale'],
  experimentalStaticLocale: '"vi-VN"',
  emitTsDeclarations: true,
  emitReadme: false,
  emitPrettierIgnore: false,
});
