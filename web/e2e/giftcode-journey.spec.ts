import type { Page } from '@playwright/test';

import {
  DESKTOP,
  expect,
  expectNoSidewaysScroll,
  historyDrawn,
  historyRows,
  PHONE,
  registerNewPlayer,
  reloadUntil,
  screenshotAtWidth,
  test,
} from './fixtures';

/** The code the portal seeds for new players: 1,000 KP once per player (see the backend seed). */
const WELCOME = { code: 'KID-WELCOME', campaign: 'Chào mừng tân thủ', kp: '1,000' };

const REQUIRED = 'Vui lòng nhập mã quà tặng.';
const WRONG = 'Mã quà tặng không đúng.';
const ALREADY_REDEEMED = 'Bạn đã nhận quà của chương trình này rồi.';

/**
 * Opens a section from the side navigation: a column beside the page on a wide screen; on a
 * phone a drop-down, headed by the current section, that opens into the same links.
 */
async function openFromSideNav(page: Page, phone: boolean, name: string) {
  if (phone) {
    // The drop-down opens with a height animation: on a loaded machine a click can land where
    // the link was a frame before and miss it (the menu stays open on the same page). Click
    // again until the page changes.
    const mobile = page.getByTestId('mobile-nav');
    const link = mobile.getByRole('link', { name });
    const before = page.url();
    await expect(async () => {
      if (!(await link.isVisible())) await mobile.getByRole('button').first().click();
      await link.click({ timeout: 2_000 });
      await expect(page).not.toHaveURL(before, { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
  } else {
    await page.getByRole('navigation', { name: 'Quản lý tài khoản' }).getByRole('link', { name }).click();
  }
}

// The welcome code grants once per player, and the journey runs at two widths: each run signs
// up a player of its own instead of using the seeded demo player.
for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`a new player redeems the welcome giftcode once and sees it in the history (${name})`, async ({ page }) => {
    const phone = viewport === PHONE;
    await page.setViewportSize(viewport);
    await registerNewPlayer(page);
    const balance = page.getByTestId('header-balance');
    await expect(balance).toHaveText('0 KP');

    // The page, from the side navigation after 'Nạp game'.
    await openFromSideNav(page, phone, 'Nhập giftcode');
    await expect(page).toHaveURL(/\/giftcode$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Nhập giftcode' })).toBeVisible();
    await expect(
      page.getByText(
        'Nhập mã quà tặng để nhận KP hoặc vật phẩm trong game. Mỗi mã chỉ dùng được theo điều kiện của chương trình.',
      ),
    ).toBeVisible();
    const code = page.getByRole('textbox', { name: 'Mã quà tặng' });
    const submit = page.getByRole('main').getByRole('button', { name: 'Nhận quà' });
    await expect(code).toHaveAttribute('placeholder', 'VD: KID-XXXX-XXXX-XXXX');
    await expect(submit).toBeEnabled();
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'giftcode-form');

    // Nothing typed: said under the field, nothing sent.
    await submit.click();
    await expect(page.getByText(REQUIRED)).toBeVisible();
    await expect(code).toHaveAttribute('aria-invalid', 'true');

    // A code no campaign has.
    await code.fill('KID-NOPE-1234');
    await submit.click();
    await expect(page.getByText(WRONG)).toBeVisible();
    await expect(page.getByText(REQUIRED)).toHaveCount(0);
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(code).toHaveValue('KID-NOPE-1234');
    await screenshotAtWidth(page, 'giftcode-error');

    // The welcome code, typed with spaces around it and in lower case.
    await code.fill(` ${WELCOME.code.toLowerCase()} `);
    await submit.click();
    const success = page.getByText(/^Nhận quà thành công!/);
    await expect(success).toBeVisible();
    await expect(success).toHaveText(
      `Nhận quà thành công! Bạn nhận được ${WELCOME.kp} KP từ chương trình ${WELCOME.campaign}.`,
    );
    await expect(code).toHaveValue('');
    await expect(code).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(WRONG)).toHaveCount(0);
    await expect(balance).toHaveText(`${WELCOME.kp} KP`);
    await screenshotAtWidth(page, 'giftcode-success');

    // Once per player.
    await code.fill(WELCOME.code);
    await submit.click();
    await expect(page.getByText(ALREADY_REDEEMED)).toBeVisible();
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(success).toHaveCount(0);
    await expect(balance).toHaveText(`${WELCOME.kp} KP`);

    // The history has the grant; the type filter offers giftcodes. The row comes from the
    // wallet, which may record it a moment after the answer: read the history again until it is.
    await page.goto('/transactions/all');
    await expect(page.getByRole('heading', { level: 1, name: 'Toàn bộ lịch sử giao dịch' })).toBeVisible();
    const rows = historyRows(page, phone);
    const giftcodeRow = rows.filter({ hasText: 'Nhận quà giftcode' });
    await reloadUntil(page, historyDrawn(page, rows), () => expect(giftcodeRow).toHaveCount(1, { timeout: 1_000 }));
    await expect(giftcodeRow).toContainText(`+${WELCOME.kp} KP`);
    await expect(giftcodeRow).toContainText(`Chương trình: ${WELCOME.campaign}`);
    await expect(giftcodeRow).toContainText('Thành công');

    const type = page.getByRole('combobox', { name: 'Loại giao dịch' });
    await expect(type.locator('option', { hasText: 'Nhận quà giftcode' })).toHaveAttribute('value', 'giftcode');
    await type.selectOption({ label: 'Nhận quà giftcode' });
    await page.getByRole('button', { name: 'Lọc', exact: true }).click();
    await expect(page).toHaveURL(/\/transactions\/all\?type=giftcode$/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Nhận quà giftcode');
    await expect(rows.first()).toContainText(`+${WELCOME.kp} KP`);
    await expect(page.getByText('Đã hiển thị tất cả 1 giao dịch.')).toBeVisible();
    await screenshotAtWidth(page, 'giftcode-history');
  });
}
