import { readFile } from 'node:fs/promises';

import type { Page } from '@playwright/test';

import {
  DESKTOP,
  expect,
  expectNoSidewaysScroll,
  newPlayer,
  PASSWORD,
  PHONE,
  signInAsDemo,
  submitSignUp,
  test,
  waitForMail, waitForHydration } from './fixtures';

/** What signing in to a closed account with its right password answers. */
const ACCOUNT_CLOSED =
  'Tài khoản này đã được đóng theo yêu cầu xóa của chủ tài khoản. ' +
  'Nếu bạn muốn giữ lại tài khoản, hãy liên hệ bộ phận hỗ trợ trong vòng 30 ngày kể từ ngày đóng.';
const PASSWORD_WRONG = 'Mật khẩu hiện tại không chính xác.';
const CLOSED_MAIL = 'Tài khoản Kid của bạn đã được đóng';

/** What the export holds, as far as the journey reads it. */
type Export = {
  schemaVersion: number;
  profile: { username: string; email: string };
  account: { id: string };
  signIns: unknown[];
};

/**
 * What is in view at the page's width, as the player sees it (a modal, or a card scrolled to):
 * /tmp/data-{name}-{width}.png.
 */
async function screenshot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? DESKTOP.width;
  await page.screenshot({ path: `/tmp/data-${name}-${width}.png`, animations: 'disabled' });
}

/** A moment's day as the portal shows it, in this machine's time zone (the browser's too). */
function day(moment: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(moment.getDate())}/${pad(moment.getMonth() + 1)}/${moment.getFullYear()}`;
}

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`a player downloads their data, then closes their account (${name})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const player = newPlayer();
    await submitSignUp(page, player, PASSWORD);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();

    const card = page.getByRole('region', { name: 'Dữ liệu cá nhân' });
    await card.scrollIntoViewIfNeeded();
    await expect(card).toContainText('hồ sơ, lịch sử đăng nhập, giao dịch, đơn nạp game và các thư Kid đã gửi cho bạn');
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshot(page, 'card');

    // The download: one JSON file under the server's name, with what Kid holds about the player.
    const downloading = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Tải xuống dữ liệu của tôi' }).click();
    const download = await downloading;
    const fileName = download.suggestedFilename();
    expect(fileName).toMatch(new RegExp(`^kid-du-lieu-ca-nhan-${player.username}-\\d{8}\\.json$`));
    const data = JSON.parse(await readFile(await download.path(), 'utf8')) as Export;
    expect(data.schemaVersion).toBe(1);
    expect(data.profile.username).toBe(player.username);
    expect(data.profile.email).toBe(player.email);
    expect(data.account.id).toMatch(/\S/);
    expect(data.signIns.length).toBeGreaterThan(0);
    await expect(card.getByRole('status')).toHaveText(`Đã tải xuống tệp ${fileName}.`);
    await card.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshot(page, 'card-downloaded');

    // Closing: what it does, then the password; a wrong one first.
    await card.getByRole('button', { name: 'Xóa tài khoản' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Xóa tài khoản?' });
    await expect(dialog).toContainText(`Khi bạn xác nhận xóa tài khoản ${player.username}:`);
    await expect(dialog).toContainText('Tài khoản được đóng ngay lập tức');
    await expect(dialog).toContainText('Mọi thiết bị đang đăng nhập vào tài khoản đều bị đăng xuất.');
    await expect(dialog).toContainText('Sau 30 ngày, thông tin cá nhân');
    await expect(dialog).toContainText('Các giao dịch KP được giữ lại theo quy định về chứng từ kế toán');
    // A new player holds no KP: no balance is named.
    await expect(dialog.getByText(/^Số dư hiện tại/)).toHaveCount(0);
    const submit = dialog.getByRole('button', { name: 'Xóa tài khoản' });
    await expect(submit).toBeDisabled();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshot(page, 'dialog');

    const password = dialog.getByLabel(/^Mật khẩu hiện tại/);
    await password.fill('Sai-mat-khau-1!');
    await submit.click();
    await expect(dialog.getByText(PASSWORD_WRONG)).toBeVisible();
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await screenshot(page, 'dialog-wrong-password');
    expect((await page.request.get('/api/me')).status()).toBe(200);

    // The session's cookies, to show that the server ended the session and not only the cookie.
    const cookies = await page.context().cookies();
    await password.fill(PASSWORD);
    const closedAt = Date.now();
    await submit.click();

    await expect(page).toHaveURL(/\/account-closed\?eraseAfter=/);
    await expect(page.getByRole('heading', { level: 2, name: 'Tài khoản của bạn đã được đóng' })).toBeVisible();
    const eraseAfter = new URL(page.url()).searchParams.get('eraseAfter');
    expect(eraseAfter).not.toBeNull();
    const erasedAt = new Date(eraseAfter!);
    // Thirty days on, give or take the time the request took.
    expect(Math.abs(erasedAt.getTime() - closedAt - 30 * 86_400_000)).toBeLessThan(60_000);
    await expect(page.getByText(`Dữ liệu cá nhân của bạn sẽ bị xóa vĩnh viễn từ ngày ${day(erasedAt)}.`)).toBeVisible();
    await expect(page.getByText('Mọi thiết bị đã được đăng xuất khỏi tài khoản.')).toBeVisible();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshot(page, 'closed');

    // Signed out, even with the cookies the session had.
    expect((await page.request.get('/api/me')).status()).toBe(401);
    await page.context().addCookies(cookies);
    expect((await page.request.get('/api/me')).status()).toBe(401);

    const mail = await waitForMail(page, player.email, (candidate) => candidate.subject === CLOSED_MAIL, 'the closing mail');
    expect(mail.text).toContain(`tài khoản Kid "${player.username}" đã được đóng`);

    // Signing in again with the right password is told that the account is closed.
    await page.getByRole('link', { name: 'Về trang đăng nhập' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await waitForHydration(page);
    await page.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(player.username);
    await page.getByLabel(/^Mật khẩu/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText(ACCOUNT_CLOSED);
    await expect(page).toHaveURL(/\/login$/);
    await waitForHydration(page);
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshot(page, 'login-closed');
    expect((await page.request.get('/api/me')).status()).toBe(401);
  });
}

test('the dialog names the KP balance that closing the account would lose, and cancelling keeps it', async ({
  page,
}) => {
  await signInAsDemo(page);
  const me = (await (await page.request.get('/api/me')).json()) as { credit: number; debtCredit: number };
  // The demo player is seeded with KP; no other journey spends all of it.
  expect(me.credit).toBeGreaterThan(0);
  const balance = `Số dư hiện tại: ${me.credit.toLocaleString('en-US')} KP sẽ không được hoàn lại.`;

  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.getByRole('region', { name: 'Dữ liệu cá nhân' }).getByRole('button', { name: 'Xóa tài khoản' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Xóa tài khoản?' });
    await expect(dialog.getByText(balance)).toBeVisible();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshot(page, 'dialog-balance');
    await dialog.getByRole('button', { name: 'Hủy' }).click();
    await expect(dialog).toHaveCount(0);
  }
  expect((await page.request.get('/api/me')).status()).toBe(200);
});
