import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { test as base, chromium, expect, type Page } from '@playwright/test';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

const SCREENSHOTS = new URL('./screenshots/', import.meta.url);

/**
 * Each test gets Debian's Chromium with a fresh profile directory, removed afterwards, so no
 * cookie or storage of an earlier run leaks in.
 */
export const test = base.extend({
  context: async ({ baseURL, locale }, provide) => {
    const profile = await mkdtemp(join(tmpdir(), 'kid-e2e-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      baseURL,
      locale,
      viewport: DESKTOP,
    });
    try {
      await provide(context);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  },
  page: async ({ context }, provide) => {
    await provide(context.pages()[0] ?? (await context.newPage()));
  },
});

export { expect };

/** Full-page screenshots at 1280 and 390 px wide: e2e/screenshots/{name}-{width}.png. */
export async function screenshots(page: Page, name: string) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    // Let layout and transitions settle at the new width.
    await page.waitForTimeout(300);
    await page.screenshot({
      path: new URL(`${name}-${size.width}.png`, SCREENSHOTS).pathname,
      fullPage: true,
      animations: 'disabled',
    });
  }
  await page.setViewportSize(DESKTOP);
}
