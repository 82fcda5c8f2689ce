import type { Metric } from 'web-vitals';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { reportWebVitals } from '../rum';

/** What each of the library's `on…` functions was given, to report figures through. */
const reporters = vi.hoisted(() => new Map<string, (metric: Pick<Metric, 'name' | 'value'>) => void>());

vi.mock('web-vitals', () => {
  const on = (name: string) => (report: (metric: Pick<Metric, 'name' | 'value'>) => void) => {
    reporters.set(name, report);
  };
  return { onCLS: on('CLS'), onFCP: on('FCP'), onINP: on('INP'), onLCP: on('LCP'), onTTFB: on('TTFB') };
});

function hidePage() {
  Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
  document.dispatchEvent(new Event('visibilitychange'));
}

/** A blob's text (jsdom's Blob has no `text()`). */
function textOf(blob: Blob) {
  return new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(new Error('unreadable'));
    reader.readAsText(blob);
  });
}

type SendBeacon = (url: string, blob: Blob) => boolean;

async function beacons(sendBeacon: ReturnType<typeof vi.fn<SendBeacon>>) {
  return Promise.all(
    sendBeacon.mock.calls.map(async ([url, blob]) => ({
      url,
      type: blob.type,
      body: JSON.parse(await textOf(blob)) as { path: string; figures: { name: string; value: number }[] },
    })),
  );
}

describe('reportWebVitals', () => {
  afterEach(() => {
    reporters.clear();
    Reflect.deleteProperty(document, 'visibilityState');
    Reflect.deleteProperty(navigator, 'sendBeacon');
    window.history.replaceState(null, '', '/');
  });

  it('sends the figures of the page it was loaded at when the page is hidden, sixteen a beacon', async () => {
    const sendBeacon = vi.fn<SendBeacon>(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: sendBeacon });
    window.history.replaceState(null, '', '/recharge/jxonline2');
    await reportWebVitals();
    reporters.get('TTFB')?.({ name: 'TTFB', value: 120 });
    reporters.get('LCP')?.({ name: 'LCP', value: 1800 });
    // The player moves on inside the app: the figures are still the first page's.
    window.history.replaceState(null, '', '/transactions');
    for (let i = 0; i < 16; i += 1) reporters.get('CLS')?.({ name: 'CLS', value: i / 100 });
    expect(sendBeacon).not.toHaveBeenCalled();

    hidePage();

    const sent = await beacons(sendBeacon);
    expect(sent.map(({ url, type }) => [url, type])).toEqual([
      ['/api/rum', 'application/json'],
      ['/api/rum', 'application/json'],
    ]);
    expect(sent.map(({ body }) => body.path)).toEqual(['/recharge/jxonline2', '/recharge/jxonline2']);
    const [first, second] = sent.map(({ body }) => body.figures);
    expect(first).toHaveLength(16);
    expect(first?.slice(0, 2)).toEqual([
      { name: 'TTFB', value: 120 },
      { name: 'LCP', value: 1800 },
    ]);
    expect(second).toEqual([
      { name: 'CLS', value: 0.14 },
      { name: 'CLS', value: 0.15 },
    ]);

    // Sent once: hidden again with nothing new, no beacon.
    hidePage();
    expect(sendBeacon).toHaveBeenCalledTimes(2);
  });

  it('measures nothing in a browser without beacons', async () => {
    await reportWebVitals();
    expect(reporters.size).toBe(0);
  });
});
