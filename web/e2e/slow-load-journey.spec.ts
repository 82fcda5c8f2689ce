import type { Page, Request, Route } from '@playwright/test';

import { DESKTOP, expect, PHONE, registerNewPlayer, test } from './fixtures';

const FALLBACK = 'Đang tải dữ liệu...';
const SLOW_HINT = 'Kết nối chậm, vui lòng chờ trong giây lát...';

/** Screenshots of one moment at the page's current width: e2e/screenshots/slow-load-{name}-{width}.png. */
async function screenshot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? DESKTOP.width;
  await page.screenshot({
    path: new URL(`./screenshots/slow-load-${name}-${width}.png`, import.meta.url).pathname,
    fullPage: true,
  });
}

/**
 * Holds every request `url` matches until `release()` is called: a connection as slow as the
 * test needs it to be, without waiting a fixed time.
 */
async function holdRequests(page: Page, url: string | RegExp) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  await page.route(url, async (route: Route) => {
    held.push(route.request().url());
    await released;
    await route.fallback();
  });
  return { release, held };
}

/** Requests for the chat widget, the tag manager or their chunks: none without their settings. */
function thirdPartyRequests(page: Page) {
  const urls: string[] = [];
  page.on('request', (request: Request) => {
    if (/facebook|googletagmanager|messenger-chat|tag-manager/.test(request.url())) urls.push(request.url());
  });
  return urls;
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`a slow first load shows 'Đang tải dữ liệu...', then the page (${viewport.width} px)`, async ({ page }) => {
    await registerNewPlayer(page);
    await page.setViewportSize(viewport);
    const thirdParty = thirdPartyRequests(page);
    const me = await holdRequests(page, '**/api/me');

    await page.goto('/transactions', { waitUntil: 'commit' });

    // No blank page while the player's data is on its way: the page fallback, then after 3 s
    // (5 s on a slow connection) the slow-connection hint below it.
    await expect(page.getByText(FALLBACK)).toBeVisible();
    await expect.poll(() => me.held.length).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(0);
    await screenshot(page, 'fallback');
    await expect(page.getByText(SLOW_HINT)).toBeVisible({ timeout: 10_000 });
    await screenshot(page, 'slow-hint');

    me.release();
    await expect(page.getByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeVisible();
    await expect(page.getByText(FALLBACK)).toBeHidden();
    await expect(page.getByText(SLOW_HINT)).toBeHidden();
    // The latest-10 view is what it always was.
    await expect(page.getByText('Hiện bạn chưa có giao dịch nào.')).toBeVisible();
    await screenshot(page, 'loaded');

    // Without their settings the chat widget and the tag manager load nothing.
    await page.waitForLoadState('load');
    await page.waitForTimeout(1_000);
    expect(thirdParty).toEqual([]);
  });
}

test("a page whose code is slow to come shows 'Đang tải dữ liệu...' in the shell", async ({ page }) => {
  await registerNewPlayer(page);
  const chunk = await holdRequests(page, /\/assets\/transactions-screen-[\w-]+\.js$/);

  await page.getByRole('navigation', { name: 'Quản lý tài khoản' }).getByRole('link', { name: 'Lịch sử giao dịch' }).click();

  // The shell stays; its content says the page is loading.
  await expect(page.getByRole('main').getByText(FALLBACK)).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();
  await expect.poll(() => chunk.held.length).toBeGreaterThan(0);
  await screenshot(page, 'route-fallback');

  chunk.release();
  await expect(page.getByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeVisible();
  await expect(page.getByText(FALLBACK)).toBeHidden();
});

test('a signed-in player who opens /login is sent on by a full page load', async ({ page }) => {
  await registerNewPlayer(page);
  await page.goto('/transactions');
  await expect(page.getByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeVisible();

  // Pages the browser loads as documents (a navigation within the app loads none).
  const documents: string[] = [];
  page.on('request', (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      documents.push(new URL(request.url()).pathname);
    }
  });
  await page.goto('/login?next_uri=%2Frecharge');
  await expect(page).toHaveURL(/\/recharge$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Nạp game' })).toBeVisible();
  expect(documents).toEqual(['/login', '/recharge']);
  // /login replaced itself in the history: Back goes to the page before it.
  await page.goBack();
  await expect(page).toHaveURL(/\/transactions$/);
});
