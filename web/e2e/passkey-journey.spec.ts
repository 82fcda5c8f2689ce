import type { CDPSession, Locator, Page } from '@playwright/test';

import { DESKTOP, expect, expectNoSidewaysScroll, PASSWORD, PHONE, registerNewPlayer, signOut, test, waitForHydration } from './fixtures';

/** The portal as the other journeys open it: at an IP address, where browsers refuse WebAuthn. */
const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
/** The same portal on localhost, where its passkeys live (the gateway's passkey origin). */
const LOCALHOST_URL = BASE_URL.replace('127.0.0.1', 'localhost');

const SIGN_IN_FAILED = 'Không thể đăng nhập bằng passkey này. Hãy thử lại hoặc đăng nhập bằng mật khẩu.';
/** A time as the portal shows it: dd/MM/yyyy HH:mm. */
const TIME = /\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/;

/**
 * Chromium's virtual authenticator, as a phone's or a computer's own (internal, with a
 * fingerprint reader that always recognises the player): it keeps discoverable passkeys and
 * answers the browser's prompt by itself.
 */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}


/** A screenshot of one part of the page, to look at: /tmp/passkey-{name}-{width}.png. */
async function shoot(page: Page, target: Locator | Page, name: string) {
  const width = page.viewportSize()?.width ?? DESKTOP.width;
  await page.waitForTimeout(300);
  await target.screenshot({ path: `/tmp/passkey-${name}-${width}.png`, animations: 'disabled' });
}

// The journeys open the portal on localhost; the sign-up there gives the browser its session.
test.use({ baseURL: LOCALHOST_URL });

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`a new player adds a passkey, signs in with it without typing anything, and removes it (${name})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    await registerNewPlayer(page);

    // None to begin with.
    await page.goto('/security');
    const card = page.getByRole('region', { name: 'Passkey' });
    await expect(card.getByText('Bạn chưa thêm passkey nào.')).toBeVisible();

    // The password, a name on the desktop run (the phone's is left to the server), then the
    // authenticator's prompt answers by itself.
    await card.getByRole('button', { name: 'Thêm passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Thêm passkey' });
    await expect(dialog).toBeVisible();
    // A wrong password is said under it, and no passkey is made.
    await dialog.getByLabel(/^Mật khẩu hiện tại/).fill('Sai-mat-khau-1!');
    await dialog.getByRole('button', { name: 'Tiếp tục' }).click();
    await expect(dialog.getByText('Mật khẩu hiện tại không chính xác.')).toBeVisible();
    await expect(dialog.getByLabel(/^Mật khẩu hiện tại/)).toHaveAttribute('aria-invalid', 'true');

    const passkeyName = name === 'desktop' ? 'Máy tính làm việc' : null;
    await dialog.getByLabel(/^Mật khẩu hiện tại/).fill(PASSWORD);
    if (passkeyName) await dialog.getByLabel(/^Tên passkey/).fill(passkeyName);
    await expectNoSidewaysScroll(page, viewport.width);
    await shoot(page, page, 'add-dialog');
    await dialog.getByRole('button', { name: 'Tiếp tục' }).click();

    const toast = page.getByText('Đã thêm passkey!');
    await expect(toast).toBeVisible();
    await expect(dialog).toBeHidden();
    const rows = card.getByRole('list', { name: 'Passkey' }).getByRole('listitem');
    await expect(rows).toHaveCount(1);
    const listedName = (await rows.first().locator('p').first().textContent()) ?? '';
    if (passkeyName) expect(listedName).toBe(passkeyName);
    // Without a name, the server's words for this browser and system.
    else expect(listedName).toMatch(/ trên /);
    await expect(rows.first()).toContainText(/Thêm ngày \d{2}\/\d{2}\/\d{4}/);
    await expect(rows.first()).toContainText('Chưa dùng');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials, 'the passkey the authenticator keeps').toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    await card.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, viewport.width);
    await shoot(page, card, 'security-card');

    // Signed out (once the toast, over the account menu, has gone), the sign-in page offers the
    // passkey, with the remember box as the player leaves it.
    await expect(toast).toBeHidden();
    await signOut(page);
    const passkeyButton = page.getByRole('button', { name: 'Đăng nhập bằng passkey' });
    await expect(passkeyButton).toBeVisible();
    await expectNoSidewaysScroll(page, viewport.width);
    await shoot(page, page, 'login');
    // A prompt the player does not confirm (the authenticator does not recognise them) is said calmly.
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    await passkeyButton.click();
    await expect(page.getByRole('status').filter({ hasText: 'Đã hủy đăng nhập bằng passkey.' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await shoot(page, page, 'login-cancelled');
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });

    await page.getByText('Ghi nhớ đăng nhập').click();
    await expect(page.getByRole('checkbox', { name: 'Ghi nhớ đăng nhập' })).toBeChecked();
    const sessionCookie = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'kid_session');
    await passkeyButton.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeVisible();
    // 'Ghi nhớ đăng nhập' went along: the session outlives the browser.
    expect((await sessionCookie())?.expires).toBeGreaterThan(Date.now() / 1000);

    // The history says how, newest first; the passkey was used just now.
    await page.goto('/security');
    const history = page.getByRole('region', { name: 'Lịch sử đăng nhập' });
    const latest = history.getByRole('list', { name: 'Lịch sử đăng nhập' }).getByRole('listitem').first();
    await expect(latest).toContainText('Đăng nhập bằng: Khóa truy cập (passkey)');
    await expect(latest.getByText('Thành công', { exact: true })).toBeVisible();
    await expect(latest).toContainText(TIME);
    await expect(rows.first()).toContainText(/Dùng lần cuối \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await card.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, viewport.width);
    await shoot(page, card, 'security-card-used');

    // Removed after the confirmation, it no longer signs in.
    await rows.first().getByRole('button', { name: `Xóa passkey ${listedName}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Xóa passkey?' });
    await expect(confirm).toContainText(listedName);
    await shoot(page, page, 'remove-dialog');
    await confirm.getByRole('button', { name: 'Xóa passkey' }).click();
    const removedToast = page.getByText(`Đã xóa passkey "${listedName}".`);
    await expect(removedToast).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(card.getByText('Bạn chưa thêm passkey nào.')).toBeVisible();
    await expect(removedToast).toBeHidden();

    await signOut(page);
    await page.getByRole('button', { name: 'Đăng nhập bằng passkey' }).click();
    await expect(page.getByRole('alert')).toContainText(SIGN_IN_FAILED);
    await expect(page).toHaveURL(/\/login$/);
    await waitForHydration(page);
    await expectNoSidewaysScroll(page, viewport.width);
    await shoot(page, page, 'login-refused');
  });
}

test('at the IP address the sign-in page links to localhost instead of offering the passkey', async ({ page }) => {
  await addVirtualAuthenticator(page);
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${BASE_URL}/login`);
    await expect(page.getByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Đăng nhập', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Đăng nhập bằng passkey' })).toHaveCount(0);
    const host = new URL(LOCALHOST_URL).host;
    await expect(page.getByText('Passkey chỉ dùng được khi mở Kid bằng tên miền:')).toBeVisible();
    const link = page.getByRole('link', { name: `mở trang này tại ${host}` });
    await expect(link).toHaveAttribute('href', `${LOCALHOST_URL}/login`);
    await expectNoSidewaysScroll(page, viewport.width);
    await shoot(page, page, 'login-ip-host');
  }

  // The link leads to the same page on localhost, where the button is.
  await page.getByRole('link', { name: /^mở trang này tại / }).click();
  await expect(page).toHaveURL(`${LOCALHOST_URL}/login`);
  await expect(page.getByRole('button', { name: 'Đăng nhập bằng passkey' })).toBeVisible();
});
