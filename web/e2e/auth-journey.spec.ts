import type { Page } from '@playwright/test';

import { expect, newPlayer, PASSWORD, screenshots, signOut, test, waitForHydration } from './fixtures';

const nextStep = (page: Page) => page.getByRole('button', { name: 'Tiếp tục' });
const accountMenu = (page: Page, username: string) =>
  page.getByRole('banner').getByRole('button', { name: new RegExp(username) });

async function signIn(page: Page, username: string, { remember = false } = {}) {
  await waitForHydration(page);
  await page.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(username);
  await page.getByLabel(/^Mật khẩu/).fill(PASSWORD);
  if (remember) await page.getByText('Ghi nhớ đăng nhập').click();
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
}


test('a new player signs up, signs out, signs in again and is sent back where they were going', async ({
  page,
  context,
}) => {
  const player = newPlayer();

  // Sign up, one step at a time.
  await page.goto('/register');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Đăng ký tài khoản' })).toBeVisible();
  await expect(nextStep(page)).toBeDisabled();
  await screenshots(page, 'register-email');
  await page.getByRole('textbox', { name: 'Địa chỉ email' }).fill(player.email);
  await page.getByText('Nhận tin tức và ưu đãi từ Kid qua email').click();
  await nextStep(page).click();

  await page.getByRole('textbox', { name: 'Ngày', exact: true }).fill('15');
  await page.getByRole('textbox', { name: 'Tháng' }).fill('03');
  await page.getByRole('textbox', { name: 'Năm' }).fill('1995');
  await screenshots(page, 'register-dob');
  await nextStep(page).click();

  // The browser's Back button returns to the previous step.
  await expect(page.getByRole('textbox', { name: 'Tên đăng nhập' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('textbox', { name: 'Năm' })).toHaveValue('1995');
  await page.goForward();

  await page.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(player.username);
  await nextStep(page).click();

  await page.getByLabel(/^Mật khẩu/).fill(PASSWORD);
  await page.getByLabel(/^Xác nhận mật khẩu/).fill(PASSWORD);
  await expect(page.getByRole('meter', { name: 'Độ mạnh mật khẩu' })).toHaveAttribute('aria-valuetext', 'Rất mạnh');
  await screenshots(page, 'register-password');
  await page.getByRole('button', { name: 'Đăng ký' }).click();

  // Signed in straight away, on /.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();
  await expect(accountMenu(page, player.username)).toBeVisible();
  await screenshots(page, 'signed-in-home');

  await signOut(page);
  await screenshots(page, 'login');

  // Sign in again, remembered: the session cookie then outlives the browser session.
  await signIn(page, player.username, { remember: true });
  await expect(page).toHaveURL(/\/$/);
  await expect(accountMenu(page, player.username)).toBeVisible();
  await accountMenu(page, player.username).click();
  await expect(page.getByRole('menu')).toContainText('Xin chào,');
  await expect(page.getByRole('menu')).toContainText(player.username);
  await page.keyboard.press('Escape');
  const session = (await context.cookies()).find((cookie) => cookie.name === 'kid_session');
  expect(session?.expires ?? -1).toBeGreaterThan(Date.now() / 1000);

  // A guarded page visited signed out comes back after signing in (the 401 loads /login
  // afresh, with the page as next_uri).
  await signOut(page);
  await page.goto('/transactions');
  await expect(page).toHaveURL(/\/login\?next_uri=%2Ftransactions$/);
  await waitForHydration(page);
  await signIn(page, player.username);
  await expect(page).toHaveURL(/\/transactions$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeVisible();
  await expect(accountMenu(page, player.username)).toBeVisible();
  await screenshots(page, 'transactions');
});

test('a wrong password is refused with the message and the username flagged', async ({ page }) => {
  await page.goto('/login');
  await waitForHydration(page);
  await page.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(newPlayer().username);
  await page.getByLabel(/^Mật khẩu/).fill('Wrong-password-1');
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Tên đăng nhập hoặc mật khẩu không chính xác.');
  await expect(page.getByRole('textbox', { name: 'Tên đăng nhập' })).toHaveAttribute('aria-invalid', 'true');
  await screenshots(page, 'login-failed');
});
