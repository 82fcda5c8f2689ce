/**
 * The first script a page runs, before the app's code has loaded. index.html loads it as a
 * small classic script at the top of <head> (the portal's CSP allows no inline script), so the
 * first paint already shows what it chooses; the build
 * (`bootScript` in vite.config.ts) strips its types, fills in BOOT_ROUTES and emits it as a
 * hashed asset. It imports nothing, so it stays a few hundred bytes.
 *
 * - The colour mode the visitor chose (src/components/ui/use-color-mode.ts keeps it in localStorage) goes on <html>
 *   now, not once React has mounted, so a light-mode visitor sees no dark page first.
 * - The lazy route modules of the URL (and their imports) start loading at once, beside the
 *   app's own code, instead of once that code has run and the router has matched the URL.
 * - On /login the static copy of the sign-in card in index.html (`.boot-shell`) is shown until
 *   the app renders over it; other pages show the page fallback ('Đang tải dữ liệu...', with
 *   the slow-connection hint after 3 s, or 5 s on a slow connection).
 */

/** The module files any route preloads. */
declare const BOOT_FILES: string[];
/** [URL pattern (case-insensitive, as the router matches), indexes of its files in BOOT_FILES]. */
declare const BOOT_ROUTES: [string, number[]][];

const root = document.documentElement;

try {
  const mode = localStorage.getItem('chakra-ui-color-mode');
  if (mode === 'light' || mode === 'dark') {
    root.classList.remove('light', 'dark');
    root.classList.add(mode);
    root.style.colorScheme = mode;
  }
} catch {
  // Storage may be blocked; the app's colour-mode provider decides later.
}

const path = location.pathname;
const route = BOOT_ROUTES.find(([pattern]) => new RegExp(pattern, 'i').test(path));
for (const index of route ? route[1] : []) {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.crossOrigin = '';
  link.href = BOOT_FILES[index] ?? '';
  document.head.append(link);
}

root.classList.add(/^\/login\/?$/i.test(path) ? 'boot-login' : 'boot-loading');

// A slow connection (as src/lib/connection.ts counts one) shows the page fallback's slow hint
// after 5 s instead of 3 s, as the app does.
const connection = (navigator as Navigator & { connection?: { effectiveType?: string; saveData?: boolean } })
  .connection;
if (connection && (connection.saveData === true || /^(slow-2g|2g|3g)$/.test(connection.effectiveType ?? ''))) {
  root.classList.add('boot-slow-net');
}
