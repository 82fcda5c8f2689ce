import type { Page } from '@playwright/test';

import { expect, PASSWORD, registerNewPlayer, screenshots, test, waitForHydration } from './fixtures';

const NEW_PASSWORD = 'Kid-e2e-doi-2025!';

async function signIn(page: Page, username: string, password: string) {
  await waitForHydration(page);
  await page.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(username);
  await page.getByLabel(/^Mật khẩu/).fill(password);
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
}

test('a player changes their password and protective email on /security', async ({ page }) => {
  const player = await registerNewPlayer(page);
  await page.goto('/security');
  await expect(page.getByRole('heading', { level: 1, name: 'Bảo mật và đăng nhập' })).toBeVisible();
  await expect(page.getByText(player.username, { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Đang tắt')).toBeVisible();
  // This browser is the one signed-in device.
  await expect(page.getByText('Thiết bị này')).toBeVisible();
  await screenshots(page, 'security');

  // The password: the current one is checked by the server.
  await page.getByLabel(/^Mật khẩu cũ/).fill('Sai-mat-khau-1!');
  await page.getByLabel(/^Mật khẩu mới/).fill(NEW_PASSWORD);
  await page.getByLabel(/^Xác nhận mật khẩu mới/).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Đổi mật khẩu' }).click();
  await expect(page.getByText('Mật khẩu cũ không chính xác.')).toBeVisible();
  await page.getByLabel(/^Mật khẩu cũ/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Đổi mật khẩu' }).click();
  await expect(page.getByText('Thay đổi mật khẩu thành công!')).toBeVisible();

  // The address is not verified, so no security code can be mailed: the password the account
  // has now (the new one) is asked instead, and a wrong one moves nothing.
  const newEmail = `new_${player.email}`;
  await page.getByRole('region', { name: 'Email bảo vệ' }).getByRole('button', { name: 'Thay đổi' }).click();
  const dialog = page.getByRole('dialog', { name: 'Thay đổi email bảo vệ' });
  await dialog.getByRole('textbox', { name: 'Địa chỉ email mới' }).fill(newEmail);
  await expect(dialog.getByRole('button', { name: 'Gửi mã' })).toHaveCount(0);
  await dialog.getByLabel(/^Mật khẩu hiện tại/).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Lưu' }).click();
  await expect(dialog.getByText('Mật khẩu hiện tại không chính xác.')).toBeVisible();
  await dialog.getByLabel(/^Mật khẩu hiện tại/).fill(NEW_PASSWORD);
  await dialog.getByRole('button', { name: 'Lưu' }).click();
  await expect(page.getByText('Thay đổi địa chỉ email thành công!')).toBeVisible();
  await expect(page.getByText(newEmail).first()).toBeVisible();
  await screenshots(page, 'security-changed');

  // The new password signs in; the old one no longer does.
  await page.getByRole('navigation', { name: 'Quản lý tài khoản' }).getByRole('button', { name: 'Đăng xuất' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await waitForHydration(page);
  await signIn(page, player.username, PASSWORD);
  await expect(page.getByRole('alert')).toContainText('Tên đăng nhập hoặc mật khẩu không chính xác.');
  await signIn(page, player.username, NEW_PASSWORD);
  await expect(page.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();
});
