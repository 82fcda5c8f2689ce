import { expect, registerNewPlayer, screenshots, test } from './fixtures';

test('a player changes their name and phone number on /', async ({ page }) => {
  await registerNewPlayer(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();
  const value = (label: string) => page.getByRole('term').filter({ hasText: label }).locator('+ dd');

  // The phone number: typed with spaces, kept without them.
  await page.getByRole('button', { name: 'Thay đổi Số điện thoại' }).click();
  const dialog = page.getByRole('dialog', { name: 'Thay đổi số điện thoại' });
  const save = dialog.getByRole('button', { name: 'Lưu' });
  const phone = dialog.getByRole('textbox', { name: 'Số điện thoại' });
  await expect(save).toBeDisabled();
  await phone.fill('09-12');
  await phone.blur();
  await expect(dialog.getByText('Số điện thoại không hợp lệ')).toBeVisible();
  await expect(save).toBeDisabled();
  await phone.fill('0912 345 678');
  await screenshots(page, 'profile-phone-modal');
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Thay đổi số điện thoại thành công!' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(value('Số điện thoại')).toContainText('0912345678');

  // The name, in Vietnamese order.
  await page.getByRole('button', { name: 'Thay đổi Họ và tên' }).click();
  const nameDialog = page.getByRole('dialog', { name: 'Thay đổi họ và tên' });
  await nameDialog.getByRole('textbox', { name: 'Họ', exact: true }).fill('Nguyễn');
  await nameDialog.getByRole('textbox', { name: 'Tên đệm' }).fill('Văn');
  await nameDialog.getByRole('textbox', { name: 'Tên', exact: true }).fill('An');
  await nameDialog.getByRole('button', { name: 'Lưu' }).click();
  await expect(page.getByText('Thay đổi tên thành công!')).toBeVisible();
  await expect(page.getByText('Thay đổi số điện thoại thành công!')).toHaveCount(0);
  await expect(value('Họ và tên')).toContainText('Nguyễn Văn An');
  await screenshots(page, 'profile-edited');

  // Both are kept by the server.
  await page.reload();
  await expect(value('Số điện thoại')).toContainText('0912345678');
  await expect(value('Họ và tên')).toContainText('Nguyễn Văn An');
});
