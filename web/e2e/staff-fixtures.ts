/**
 * The staff console's journeys' shared steps: the development staff's password and app codes
 * (and those of a member who enrolled with a secret of their own), signing in at /staff/login,
 * and the console's navigation.
 */
import type { Locator, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

import { expect } from './fixtures';

/** The development staff (see the identity service's seed): one password and one app secret for all. */
export const STAFF_PASSWORD = 'Staff@123456';
const STAFF_SECRET = 'JBSWY3DPEHPK3PXP';
export const FORBIDDEN = 'Vai trò của bạn không được phép thực hiện thao tác này';
export const REAUTH_NEEDED = 'Thao tác với tiền hoặc với nhân viên cần xác thực lại (mật khẩu hoặc mã ứng dụng) trong 5 phút gần nhất';

/** RFC 6238 as the identity service uses it: SHA-1, six digits, 30-second steps. */
const PERIOD_MS = 30_000;
const stepAt = (ms: number) => Math.floor(ms / PERIOD_MS);
/**
 * The last step whose code each member signed in or enrolled with, across the journeys that one
 * worker runs (the server remembers it across them too).
 */
const lastStep = new Map<string, number>();

/**
 * The member's app code for a sign-in or an enrolment, from `secret` (base32; the development
 * staff's unless told). The server takes each member's step once, and only a step after the
 * last one used, one step ahead of its clock at most: so a member signing in again within the
 * same step (or right after enrolling) gets the next step's code, and when that is more than one
 * step ahead, the clock is waited for (at most 30 s).
 */
export async function appCode(page: Page, username: string, secret = STAFF_SECRET): Promise<string> {
  const step = Math.max(stepAt(Date.now()), (lastStep.get(username) ?? Number.NEGATIVE_INFINITY) + 1);
  // A second past the boundary, against a server clock a little behind this one.
  const wait = (step - 1) * PERIOD_MS - Date.now();
  if (wait > 0) await page.waitForTimeout(wait + 1_000);
  lastStep.set(username, step);
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: step * PERIOD_MS,
  });
}

/**
 * Signs `username` in at /staff/login and waits for the console's home: the development staff's
 * password and app unless a member's own (set through their enrolment link) are given.
 */
export async function signIn(
  page: Page,
  username: string,
  { password = STAFF_PASSWORD, secret = STAFF_SECRET }: { password?: string; secret?: string } = {},
) {
  await expect(page.getByRole('heading', { level: 1, name: 'Đăng nhập nhân viên' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(username);
  await page.getByLabel(/^Mật khẩu/).fill(password);
  await page.getByRole('textbox', { name: 'Mã xác thực' }).fill(await appCode(page, username, secret));
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Xin chào, ${username}` })).toBeVisible();
}

/** The console's navigation links as shown: the side column, or on a phone the opened toggle. */
export async function navLinks(page: Page, phone: boolean): Promise<Locator> {
  if (phone) {
    // A dialog still closing (a confirmation just answered) can take the toggle's click: once
    // lost in a warm run, when nothing else waited on the page in between.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    // On a phone a toast ('Đã lưu', say) lies over the top of the page, the toggle included, and
    // a pointer resting on it pauses it: the pointer moves off, and the toasts go first.
    await page.mouse.move(0, (page.viewportSize()?.height ?? 1) - 1);
    await expect(page.locator('[data-scope="toast"][data-part="root"]')).toHaveCount(0);
    const toggle = page.getByTestId('staff-mobile-nav').getByRole('button');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }
  return page.getByRole('navigation', { name: 'Bảng điều khiển' }).getByRole('link');
}

export async function openSection(page: Page, phone: boolean, name: string) {
  await (await navLinks(page, phone)).filter({ hasText: name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}
