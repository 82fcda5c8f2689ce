import type { Page } from '@playwright/test';

import { expect, registerNewPlayer, screenshots, test } from './fixtures';

/** One message of the development mailbox (GET /api/dev/mailbox), newest first. */
type DevMail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
  code: string | null;
  sentAt: string;
};

/**
 * The newest verification link mailed to `email`, waiting up to 10 s for the courier. The
 * development mailbox is read through the page's request context; the app never calls it.
 */
async function verificationLink(page: Page, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`);
        if (!response.ok()) return undefined;
        const mails = (await response.json()) as DevMail[];
        link = mails.flatMap((mail) => mail.links).find((href) => href.includes('/email-verification/'));
        return link;
      },
      { message: `a verification mail to ${email}`, timeout: 10_000, intervals: [250, 500, 1_000] },
    )
    .toBeTruthy();
  return link!;
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
