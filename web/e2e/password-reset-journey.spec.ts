import type { Page } from '@playwright/test';

import { type DevMail, expect, PASSWORD, registerNewPlayer, screenshots, signOut, test, waitForMail, waitForHydration } from './fixtures';

const NEUTRAL =
  'Nếu thông tin bạn nhập khớp với một tài khoản, chúng tôi sẽ gửi email cho bạn trong vài phút. Hãy kiểm tra cả hộp thư rác (spam).';
const NEW_PASSWORD = 'Kid-reset-2025#';

/** The newest mail to `email` with `subject`. */
function newestMail(page: Page, email: string, subject: string): Promise<DevMail> {
  return waitForMail(page, email, (mail) => mail.subject === subject, `a mail '${subject}'`);
}


async function signIn(page: Page, username: string, password: string) {
  await waitForHydration(page);
  await page.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(username);
  await page.getByLabel(/^Mật khẩu/).fill(password);
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
}

test('a player who forgot their password sets a new one with the mailed link', async ({ page }) => {
  const player = await registerNewPlayer(page);
  await signOut(page);

  // /login → /recovery → forgot password.
  await page.getByRole('link', { name: 'Quên thông tin tài khoản?' }).click();
  await expect(page).toHaveURL(/\/recovery$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Quên thông tin tài khoản' })).toBeVisible();
  await page.getByRole('link', { name: 'Quên mật khẩu' }).click();
  await expect(page).toHaveURL(/\/recovery\/forgot-password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Quên mật khẩu' })).toBeVisible();

  // Submit needs 4 characters.
  const username = page.getByRole('textbox', { name: 'Tên đăng nhập' });
  const send = page.getByRole('button', { name: 'Gửi yêu cầu' });
  await username.fill(player.username.slice(0, 3));
  await expect(send).toBeDisabled();
  await username.fill(player.username);
  await expect(send).toBeEnabled();
  await send.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Hãy kiểm tra hộp thư của bạn' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(NEUTRAL);
  await screenshots(page, 'forgot-password-sent');

  // The mailed link is {portal}/recovery/forgot-password/{token}; it is opened on the portal under test.
  const mail = await newestMail(page, player.email, 'Đặt lại mật khẩu tài khoản Kid');
  const href = mail.link?.includes('/recovery/forgot-password/') ? mail.link : undefined;
  expect(href, 'the reset link in the mail').toBeTruthy();
  const link = new URL(href!);
  expect(link.pathname).toMatch(/^\/recovery\/forgot-password\/[^/]+$/);
  await page.goto(link.pathname);
  await expect(page.getByRole('heading', { level: 1, name: 'Đặt lại mật khẩu' })).toBeVisible();

  // A medium password is not enough here.
  const password = page.getByLabel(/^Mật khẩu mới/);
  const confirm = page.getByLabel(/^Xác nhận mật khẩu mới/);
  const change = page.getByRole('button', { name: 'Đổi mật khẩu' });
  await password.fill('abcdefg1');
  await password.blur();
  await expect(
    page.getByText('Mật khẩu chưa đủ mạnh, hãy chọn mật khẩu mạnh hơn: cần có ít nhất 3 loại ký tự, trong đó có ký hiệu.'),
  ).toBeVisible();
  await expect(change).toBeDisabled();
  await password.fill(NEW_PASSWORD);
  await confirm.fill(NEW_PASSWORD);
  await expect(page.getByRole('meter', { name: 'Độ mạnh mật khẩu' })).toHaveAttribute('aria-valuetext', 'Rất mạnh');
  await expect(change).toBeEnabled();
  await screenshots(page, 'reset-password-form');
  await change.click();

  await expect(page.getByRole('heading', { level: 2, name: 'Đổi mật khẩu thành công!' })).toBeVisible();
  await screenshots(page, 'reset-password-done');

  // The link was single use.
  await page.goto(link.pathname);
  await expect(page.getByRole('heading', { level: 2, name: 'Đường dẫn không hợp lệ' })).toBeVisible();
  await expect(
    page.getByText('Đường dẫn của bạn không hợp lệ hoặc đã hết hiệu lực, hãy thử gửi lại yêu cầu nhận mật khẩu mới.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Gửi lại yêu cầu' })).toHaveAttribute('href', '/recovery/forgot-password');

  // The old password is refused, the new one signs in.
  await page.goto('/login');
  await waitForHydration(page);
  await signIn(page, player.username, PASSWORD);
  await expect(page.getByRole('alert')).toContainText('Tên đăng nhập hoặc mật khẩu không chính xác.');
  await signIn(page, player.username, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: new RegExp(player.username) })).toBeVisible();
});

test('a player who forgot their username gets it by email', async ({ page }) => {
  const player = await registerNewPlayer(page);
  await signOut(page);

  await page.goto('/recovery');

  await waitForHydration(page);
  await page.getByRole('link', { name: 'Quên tên đăng nhập' }).click();
  await expect(page).toHaveURL(/\/recovery\/forgot-username$/);
  await page.getByRole('textbox', { name: 'Địa chỉ email' }).fill(player.email);
  await page.getByRole('button', { name: 'Gửi yêu cầu' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Hãy kiểm tra hộp thư của bạn' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(NEUTRAL);

  const mail = await newestMail(page, player.email, 'Tên đăng nhập tài khoản Kid của bạn');
  expect(mail.text).toContain(player.username);
});
