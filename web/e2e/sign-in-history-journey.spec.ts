import type { Page } from '@playwright/test';

import {
  DESKTOP,
  expect,
  expectNoSidewaysScroll,
  newPlayer,
  PASSWORD,
  PHONE,
  registerNewPlayer,
  screenshotAtWidth,
  screenshots,
  submitSignUp,
  test,
  waitForMail, waitForHydration } from './fixtures';

const NEW_DEVICE = 'Đăng nhập Kid từ một thiết bị mới';
const LOGIN_FAILED = 'Tên đăng nhập hoặc mật khẩu không chính xác.';
/** The identity service's wording of a password from its list of common and leaked ones. */
const PASSWORD_COMMON =
  'Mật khẩu này quá phổ biến hoặc đã bị lộ trong các vụ rò rỉ dữ liệu, hãy chọn mật khẩu khác.';
/** A time as the portal shows it: dd/MM/yyyy HH:mm. */
const TIME = /\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/;

async function signIn(page: Page, username: string, password: string) {
  await waitForHydration(page);
  await page.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(username);
  await page.getByLabel(/^Mật khẩu/).fill(password);
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
}

// Each run signs up a player of its own: the new-device mail comes once per device and player.
for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`a sign-in from a new device brings a mail whose link signs that device out, and the history shows it (${name})`, async ({
    page,
    newDevice,
  }) => {
    test.setTimeout(120_000);
    // The player's own browser: the sign-up's device.
    await page.setViewportSize(viewport);
    const player = await registerNewPlayer(page);

    // Another device: a wrong password first, then the right one.
    const stranger = await newDevice();
    await stranger.setViewportSize(viewport);
    await stranger.goto('/login');
    await signIn(stranger, player.username, 'Sai-mat-khau-1!');
    await expect(stranger.getByRole('alert')).toContainText(LOGIN_FAILED);
    await signIn(stranger, player.username, PASSWORD);
    await expect(stranger).toHaveURL(/\/$/);
    await expect(stranger.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();

    // The mail says where the sign-in came from, with a link to {portal}/end-session/{token}.
    const mail = await waitForMail(page, player.email, (candidate) => candidate.subject === NEW_DEVICE, 'the new-device mail');
    expect(mail.text).toContain(`Xin chào ${player.username}`);
    expect(mail.text).toContain('Địa chỉ IP:');
    expect(mail.link, 'the end-session link in the mail').toContain('/end-session/');
    const link = new URL(mail.link!);
    expect(link.pathname).toMatch(/^\/end-session\/[^/]+$/);

    // Opened on a third device, signed in as nobody: the page explains and waits for the button.
    const reader = await newDevice();
    await reader.setViewportSize(viewport);
    await reader.goto(link.pathname);
    await expect(reader.getByRole('heading', { level: 1, name: 'Đăng xuất thiết bị vừa đăng nhập' })).toBeVisible();
    const endButton = reader.getByRole('button', { name: 'Đăng xuất thiết bị đó' });
    await expect(endButton).toBeVisible();
    await expectNoSidewaysScroll(reader, viewport.width);
    await screenshotAtWidth(reader, 'end-session');
    // Opening the link (as a mail scanner would) signed nothing out.
    expect((await stranger.request.get('/api/me')).status()).toBe(200);

    await endButton.click();
    await expect(reader.getByRole('heading', { level: 2, name: 'Đã đăng xuất thiết bị!' })).toBeVisible();
    await expect(reader.getByText('Thiết bị vừa đăng nhập đã bị đăng xuất khỏi tài khoản của bạn.')).toBeVisible();
    await expect(reader.getByRole('link', { name: 'Đặt lại mật khẩu' })).toHaveAttribute('href', '/recovery/forgot-password');
    await expect(reader.getByRole('link', { name: 'Bật xác thực hai lớp' })).toHaveAttribute('href', '/security');
    await expectNoSidewaysScroll(reader, viewport.width);
    await screenshotAtWidth(reader, 'end-session-done');

    // The other device is signed out: reloading its signed-in page sends it to /login.
    await stranger.reload();
    await expect(stranger).toHaveURL(/\/login(\?|$)/);
    await expect(stranger.getByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeVisible();

    // The link is single use.
    await reader.goto(link.pathname);
    await reader.getByRole('button', { name: 'Đăng xuất thiết bị đó' }).click();
    await expect(reader.getByRole('heading', { level: 2, name: 'Đường dẫn không hợp lệ' })).toBeVisible();
    await expect(reader.getByText(/^Đường dẫn đăng xuất không hợp lệ/)).toBeVisible();

    // The player's own browser: still signed in, the only device left, and the history shows
    // the sign-in, the wrong password before it and the sign-up, newest first.
    await page.goto('/security');
    await expect(page.getByRole('heading', { level: 1, name: 'Bảo mật và đăng nhập' })).toBeVisible();
    const sessions = page.getByRole('region', { name: 'Thiết bị đang đăng nhập' });
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await expect(sessions.getByText('Thiết bị này')).toBeVisible();

    const history = page.getByRole('region', { name: 'Lịch sử đăng nhập' });
    const rows = history.getByRole('list', { name: 'Lịch sử đăng nhập' }).getByRole('listitem');
    await expect(rows).toHaveCount(3);
    const [signedIn, refused, signUp] = [rows.nth(0), rows.nth(1), rows.nth(2)];
    await expect(signedIn.getByText('Thành công', { exact: true })).toBeVisible();
    await expect(signedIn).toContainText('Đăng nhập bằng: Mật khẩu');
    await expect(signedIn).toContainText(/Địa chỉ IP: \S+/);
    await expect(signedIn).toContainText(TIME);
    await expect(refused.getByText('Sai mật khẩu', { exact: true })).toBeVisible();
    await expect(refused).toContainText('Đăng nhập bằng: Mật khẩu');
    await expect(refused).toContainText(TIME);
    await expect(signUp.getByText('Thành công', { exact: true })).toBeVisible();
    await history.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'sign-in-history');
  });
}

test('a password from the list of common and leaked ones is refused under the password field', async ({ page }) => {
  // Medium enough for the form's own rules; only the server knows the list.
  await submitSignUp(page, newPlayer(), 'Password@123');
  const password = page.getByLabel(/^Mật khẩu/);
  const confirm = page.getByLabel(/^Xác nhận mật khẩu/);

  await expect(password).toHaveAttribute('aria-invalid', 'true');
  const passwordField = page.getByRole('group').filter({ has: password });
  await expect(passwordField.getByText(PASSWORD_COMMON)).toBeVisible();
  await expect(confirm).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/register$/);
  await screenshots(page, 'register-common-password');

  // Another password signs up.
  await password.fill(PASSWORD);
  await confirm.fill(PASSWORD);
  await expect(page.getByText(PASSWORD_COMMON)).toBeHidden();
  await page.getByRole('button', { name: 'Đăng ký' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();
});
