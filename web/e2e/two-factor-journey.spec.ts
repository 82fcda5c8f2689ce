import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

import { DESKTOP, expect, expectNoSidewaysScroll, PASSWORD, PHONE, registerNewPlayer, screenshotAtWidth, signOut, test, waitForHydration } from './fixtures';

const CODE_WRONG = 'Mã xác thực không chính xác hoặc đã được sử dụng.';
/** A recovery code as the server hands them out: 16 letters and digits without look-alikes. */
const RECOVERY_CODE = /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/;

/** RFC 6238 as the identity service uses it: SHA-1, six digits, 30-second steps. */
const PERIOD_MS = 30_000;
const stepAt = (ms: number) => Math.floor(ms / PERIOD_MS);

/**
 * The player's authenticator app, from the secret the set-up shows. The server takes a code
 * of the current step or, for clock skew, of the step before or after it, and each step once:
 * after a code of step n, only a later step's code is taken. So each code here is of a step
 * after every one used before: the current step when still unused, else the next one; and
 * when that is more than one step ahead of the clock, the clock is waited for until it is only
 * one step behind (at most 30 s).
 */
class Authenticator {
  private lastStep = Number.NEGATIVE_INFINITY;

  constructor(private readonly secret: Secret) {}

  private codeOf(step: number) {
    return TOTP.generate({ secret: this.secret, algorithm: 'SHA1', digits: 6, period: 30, timestamp: step * PERIOD_MS });
  }

  async nextCode(page: Page): Promise<string> {
    const step = Math.max(stepAt(Date.now()), this.lastStep + 1);
    // A second past the boundary, against a server clock a little behind this one.
    const wait = (step - 1) * PERIOD_MS - Date.now();
    if (wait > 0) await page.waitForTimeout(wait + 1_000);
    this.lastStep = step;
    return this.codeOf(step);
  }

  /** Six digits no step around now (nor the next code's) has: surely refused. */
  wrongCode(): string {
    const now = stepAt(Date.now());
    const near = new Set([now - 1, now, now + 1, now + 2].map((step) => this.codeOf(step)));
    return ['000000', '111111', '222222', '333333', '444444'].find((code) => !near.has(code))!;
  }
}


/** The password step; with two-factor on, it leads to the code step on the same page. */
async function signInWithPassword(page: Page, username: string) {
  await waitForHydration(page);
  await page.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(username);
  await page.getByLabel(/^Mật khẩu/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
}

async function expectAccountPage(page: Page) {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();
}

// Each run signs up a player of its own: turning two-factor on is once per player.
for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`a new player turns two-factor on, signs in with a code and a recovery code, and turns it off (${name})`, async ({
    page,
  }) => {
    // Codes wait for the next 30-second step at most once or twice.
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const player = await registerNewPlayer(page);

    // Off to begin with.
    await page.goto('/security');
    const card = page.getByRole('region', { name: 'Xác thực hai lớp' });
    await expect(card.getByText('Đang tắt')).toBeVisible();
    await screenshotAtWidth(page, 'two-factor-off');

    // Set-up: the current password first, then the QR code and the secret, which the test's
    // authenticator takes.
    await card.getByRole('button', { name: 'Bật xác thực hai lớp' }).click();
    const setup = page.getByRole('dialog', { name: 'Thiết lập xác thực hai lớp' });
    await expect(setup).toBeVisible();
    await setup.getByLabel(/^Mật khẩu hiện tại/).fill(PASSWORD);
    await setup.getByRole('button', { name: 'Tiếp tục' }).click();
    await expect(setup.getByRole('img', { name: `Mã QR để thêm tài khoản ${player.username} vào ứng dụng xác thực` })).toBeVisible();
    const secretText = (await setup.getByTestId('totp-secret').textContent())?.replace(/\s/g, '') ?? '';
    expect(secretText).toMatch(/^[A-Z2-7]+=*$/);
    const app = new Authenticator(Secret.fromBase32(secretText));
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'two-factor-setup');

    // A wrong code is said under the field; the app's code turns two-factor on.
    const setupCode = setup.getByLabel('Mã xác thực');
    await setupCode.fill(app.wrongCode());
    await setup.getByRole('button', { name: 'Xác nhận' }).click();
    await expect(setup.getByText(CODE_WRONG)).toBeVisible();
    await expect(setupCode).toHaveAttribute('aria-invalid', 'true');
    await setupCode.fill(await app.nextCode(page));
    await setup.getByRole('button', { name: 'Xác nhận' }).click();

    // The ten recovery codes, once.
    const codesDialog = page.getByRole('dialog', { name: 'Lưu mã khôi phục' });
    await expect(codesDialog).toBeVisible();
    const recoveryCodes = await codesDialog.getByTestId('recovery-code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(RECOVERY_CODE);
    expect(new Set(recoveryCodes).size).toBe(10);
    await expect(codesDialog.getByText('Các mã này chỉ hiển thị một lần duy nhất')).toBeVisible();
    await expect(codesDialog.getByRole('link', { name: 'Tải xuống' })).toHaveAttribute(
      'download',
      `kid-${player.username}-recovery-codes.txt`,
    );
    await screenshotAtWidth(page, 'two-factor-recovery-codes');
    await codesDialog.getByRole('button', { name: 'Tôi đã lưu mã' }).click();
    await expect(codesDialog).toBeHidden();
    await expect(card.getByText('Đang bật')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Tắt xác thực hai lớp' })).toBeVisible();
    await screenshotAtWidth(page, 'two-factor-on');

    // Signing in takes the password, then a code of a step after the set-up's.
    await signOut(page);
    await signInWithPassword(page, player.username);
    await expect(page.getByRole('heading', { level: 1, name: 'Xác thực hai lớp' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await waitForHydration(page);
    const loginCode = page.getByLabel('Mã xác thực');
    await expect(loginCode).toBeFocused();
    await screenshotAtWidth(page, 'two-factor-login');
    await loginCode.fill(await app.nextCode(page));
    await page.getByRole('button', { name: 'Xác nhận' }).click();
    await expectAccountPage(page);

    // A recovery code does as well, once.
    await signOut(page);
    await signInWithPassword(page, player.username);
    await expect(page.getByRole('heading', { level: 1, name: 'Xác thực hai lớp' })).toBeVisible();
    await page.getByLabel('Mã xác thực').fill(recoveryCodes[0]!);
    await page.getByLabel('Mã xác thực').press('Enter');
    await expectAccountPage(page);

    // Off again: the password and a code. The recovery code already used is refused.
    await page.goto('/security');
    await card.getByRole('button', { name: 'Tắt xác thực hai lớp' }).click();
    const disable = page.getByRole('dialog', { name: 'Tắt xác thực hai lớp' });
    await expect(disable).toBeVisible();
    await disable.getByLabel(/^Mật khẩu hiện tại/).fill(PASSWORD);
    const disableCode = disable.getByLabel(/^Mã xác thực/);
    await disableCode.fill(recoveryCodes[0]!);
    await disable.getByRole('button', { name: 'Xác nhận' }).click();
    await expect(disable.getByText(CODE_WRONG)).toBeVisible();
    await expect(disableCode).toHaveAttribute('aria-invalid', 'true');
    await screenshotAtWidth(page, 'two-factor-disable');
    await disableCode.fill(await app.nextCode(page));
    await disable.getByRole('button', { name: 'Xác nhận' }).click();
    await expect(disable).toBeHidden();
    await expect(card.getByText('Đang tắt')).toBeVisible();
    await expect(card.getByText('Đã tắt xác thực hai lớp.')).toBeVisible();

    // The password alone signs in again.
    await signOut(page);
    await signInWithPassword(page, player.username);
    await expectAccountPage(page);
  });
}
