import type { Metric } from 'web-vitals';

import { env } from '@/config/env';

/** One figure of a beacon, as `POST /api/rum` takes it. */
type Figure = Pick<Metric, 'name' | 'value'>;

/** The most figures `POST /api/rum` takes in one beacon. */
const FIGURES_PER_BEACON = 16;

/**
 * Sends the figures gathered so far, as beacons the browser delivers even as the page goes
 * away. `path` is the page the figures were measured on: the one the app was loaded at (the
 * library measures the load, and INP and CLS over the page's life).
 */
function flush(path: string, queue: Figure[]) {
  while (queue.length > 0) {
    const body = JSON.stringify({ path, figures: queue.splice(0, FIGURES_PER_BEACON) });
    navigator.sendBeacon(`${env.API_URL}/rum`, new Blob([body], { type: 'application/json' }));
  }
}

/**
 * Real-user figures: the page's web vitals (LCP, INP, CLS, TTFB, FCP), measured by the
 * `web-vitals` library and sent to the gateway when the page is hidden (the library reports
 * LCP, INP and CLS by then), for the dashboard's p75 per route and the slow-LCP alert. The
 * library loads after the app has rendered: it reads the browser's buffered entries, so it
 * misses nothing by coming late, and /login's first paint does not wait for it.
 */
export async function reportWebVitals() {
  if (typeof navigator.sendBeacon !== 'function') return;
  const path = window.location.pathname;
  const queue: Figure[] = [];
  const send = () => flush(path, queue);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') send();
  });
  window.addEventListener('pagehide', send);
  const { onCLS, onFCP, onINP, onLCP, onTTFB } = await import('web-vitals');
  const keep = ({ name, value }: Metric) => {
    queue.push({ name, value });
  };
  for (const measure of [onCLS, onFCP, onINP, onLCP, onTTFB]) measure(keep);
}
