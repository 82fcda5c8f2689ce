import { expect, PASSWORD, registerNewPlayer, screenshots, signOut, test } from './fixtures';

/** The public pages the build prerenders (web/scripts/prerender.mjs), with what their HTML holds. */
const PAGES = [
  { path: '/login', texts: ['Đăng nhập', 'Tên đăng nhập', 'Mật khẩu', 'Ghi nhớ đăng nhập'] },
  { path: '/register', texts: ['Đăng ký tài khoản', 'Địa chỉ email'] },
  { path: '/recovery', texts: ['Quên mật khẩu'] },
  { path: '/recovery/forgot-password', texts: ['Tên đăng nhập'] },
  { path: '/recovery/forgot-username', texts: ['Địa chỉ email'] },
];

test('the public pages answer HTML that already holds their form, labels and styles', async ({ request }) => {
  for (const { path, texts } of PAGES) {
    const answer = await request.get(path);
    expect(answer.status(), path).toBe(200);
    const html = await answer.text();
    expect(html, path).toContain('<div id="root" data-prerendered="">');
    expect(html, path).toMatch(/<link rel="stylesheet"[^>]+\/assets\/[^>]+\.css"/);
    for (const text of texts) expect(html, `${path}: ${text}`).toContain(text);
  }
  const login = await (await request.get('/login')).text();
  expect(login).toMatch(/<form[^>]*>[\s\S]*<label[^>]*>[\s\S]*Tên đăng nhập[\s\S]*<input[^>]*name="username"/);
  expect(login).toMatch(/<button[^>]*type="submit"[^>]*disabled=""/);
});

test('a player types into /login before its code has loaded and signs in with what they typed', async ({ page }) => {
  const player = await registerNewPlayer(page);
  await signOut(page);

  // The app's modules wait until the player has typed; the boot script (a classic script that
  // only chooses what the first paint shows) goes through.
  let release = () => {};
  const typed = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/(?!boot-)[^/]+\.js$/, async (route) => {
    await typed;
    await route.continue();
  });

  await page.goto('/login', { waitUntil: 'commit' });
  const username = page.getByRole('textbox', { name: 'Tên đăng nhập' });
  const submit = page.getByRole('button', { name: 'Đăng nhập', exact: true });
  await expect(username).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeVisible();
  // Until the code has loaded the button stays disabled: Enter submits nothing.
  await expect(submit).toBeDisabled();
  await screenshots(page, 'login-before-hydration');
  await username.fill(player.username);
  await page.getByLabel(/^Mật khẩu/).fill(PASSWORD);
  await page.getByLabel(/^Mật khẩu/).press('Enter');
  await expect(page).toHaveURL(/\/login$/);

  release();
  await expect(submit).toBeEnabled();
  await expect(username).toHaveValue(player.username);
  await expect(page.getByLabel(/^Mật khẩu/)).toHaveValue(PASSWORD);
  await submit.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();
});

test('a visitor types their email into /register before its code has loaded and may go on at once', async ({
  page,
}) => {
  let release = () => {};
  const typed = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/(?!boot-)[^/]+\.js$/, async (route) => {
    await typed;
    await route.continue();
  });

  await page.goto('/register', { waitUntil: 'commit' });
  const email = page.getByRole('textbox', { name: /^Địa chỉ email/ });
  const next = page.getByRole('button', { name: 'Tiếp tục', exact: true });
  await expect(email).toBeVisible();
  await expect(next).toBeDisabled();
  const address = `early-${Date.now()}@example.com`;
  await email.fill(address);

  release();
  // The form takes the typed address as if typed now: valid, so the next step is offered
  // without another keystroke.
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
  await expect(email).toHaveValue(address);
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page.getByRole('textbox', { name: /Ngày sinh|Ngày/ }).first()).toBeVisible();
});
