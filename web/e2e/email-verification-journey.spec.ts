import type { Page } from '@playwright/test';

import { type DevMail, expect, registerNewPlayer, screenshots, test, waitForMail } from './fixtures';

/** The verification link mailed to `email`. */
async function verificationLink(page: Page, email: string): Promise<string> {
  const isLink = (mail: DevMail) => mail.link?.includes('/email-verification/') ?? false;
  const mail = await waitForMail(page, email, isLink, 'a verification mail');
  return mail.link!;
}

test('a new player verifies their email address with the mailed link', async ({ page }) => {
  const player = await registerNewPlayer(page);

  // Unverified: the banner names the address and sends the mail.
  const banner = page.getByRole('region', { name: 'Địa chỉ email của bạn chưa được xác minh' });
  await expect(banner).toContainText(player.email);
  await expect(page.getByText('Chưa xác minh', { exact: true })).toBeVisible();
  await banner.getByRole('button', { name: 'Gửi yêu cầu xác minh' }).click();
  await expect(banner.getByRole('status')).toContainText(`Email xác minh đã được gửi đến ${player.email}.`);
  await expect(banner.getByRole('button', { name: 'Gửi lại' })).toBeVisible();
  await screenshots(page, 'profile-verification-sent');

  // The link is {portal}/email-verification/{token}; it is opened on the portal under test.
  const link = new URL(await verificationLink(page, player.email));
  expect(link.pathname).toMatch(/^\/email-verification\/[^/]+$/);
  await page.goto(link.pathname);
  await expect(page.getByRole('heading', { level: 1, name: 'Xác minh địa chỉ Email' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Đã xong!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Hãy thử đăng nhập' })).toHaveAttribute('href', '/login');
  await screenshots(page, 'email-verified');

  // Back on /, the address is verified and the banner gone.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();
  await expect(page.getByText('Đã xác minh', { exact: true })).toBeVisible();
  await expect(banner).toHaveCount(0);
  await screenshots(page, 'profile-verified');

  // The token was single use: the same link no longer works.
  await page.goto(link.pathname);
  await expect(page.getByRole('heading', { level: 2, name: 'Đường dẫn của bạn không hoạt động' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Đến Quản lý tài khoản' })).toHaveAttribute('href', '/');
  await screenshots(page, 'email-verification-broken-link');
});
