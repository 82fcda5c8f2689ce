import type { Page } from '@playwright/test';

import {
  DESKTOP,
  expect,
  expectNoSidewaysScroll,
  PHONE,
  registerNewPlayer,
  reloadUntil,
  screenshotAtWidth,
  test,
} from './fixtures';
import { openSection, signIn } from './staff-fixtures';

/** The development bank feed's SePay API key (services/platform defaults). */
const SEPAY_API_KEY = 'dev-sepay-key';

/**
 * Sends SePay's notification of an incoming Vietcombank transfer, with the API key as SePay
 * sends it: `Authorization: Apikey <key>`.
 */
async function sendBankTransfer(baseURL: string, { id, content, amount }: { id: number; content: string; amount: number }) {
  const body = JSON.stringify({
    id,
    gateway: 'Vietcombank',
    transactionDate: '2026-11-28 09:00:00',
    accountNumber: '1023456789',
    code: null,
    content,
    transferType: 'in',
    transferAmount: amount,
    referenceCode: `FT${id}`,
  });
  const response = await fetch(new URL('/api/webhooks/bank-transfer', baseURL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Apikey ${SEPAY_API_KEY}` },
    body,
  });
  expect(response.status, await response.text()).toBe(200);
}

/** The player's balance in the header, read again until the credit has arrived. */
async function expectBalance(player: Page, text: string) {
  const header = player.getByTestId('header-balance');
  await reloadUntil(player, header, () => expect(header).toHaveText(text, { timeout: 1_000 }));
}

/** A console of its own (a browser with a fresh profile) at `viewport`, signed in as `username`. */
async function staffConsole(newDevice: () => Promise<Page>, viewport: typeof DESKTOP, username: string) {
  const staff = await newDevice();
  await staff.setViewportSize(viewport);
  await staff.goto('/staff');
  await signIn(staff, username);
  return staff;
}

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`a finance member credits an unmatched transfer to the player it names, who sees the KP (${name})`, async ({
    page,
    newDevice,
    baseURL,
  }) => {
    // A member signing in again within a 30-second step waits for the next one.
    test.setTimeout(180_000);
    const phone = viewport === PHONE;
    const player = await registerNewPlayer(page);
    await expect(page.getByTestId('header-balance')).toHaveText('0 KP');

    // The player wrote their username instead of their transfer code: the feed matches nobody.
    const id = Number(`${Date.now()}${Math.floor(Math.random() * 100)}`);
    const reference = `FT${id}`;
    await sendBankTransfer(baseURL!, { id, content: `chuyen tien cho ${player.username}`, amount: 50_000 });

    const staff = await staffConsole(newDevice, viewport, 'staff-finance');
    await openSection(staff, phone, 'Chuyển khoản chưa khớp');
    const transfer = staff.locator(`[data-transfer="${reference}"]`);
    await expect(transfer).toContainText('50.000 VND');
    await expect(transfer).toContainText(`chuyen tien cho ${player.username}`);
    await expect(transfer).toContainText('Nội dung chuyển khoản không chứa mã nạp của người chơi nào.');
    const suggestion = transfer.locator(`[data-suggestion="${player.username}"]`);
    await expect(suggestion).toContainText('Nội dung có ghi đúng tên đăng nhập của người chơi này.');
    await expectNoSidewaysScroll(staff, viewport.width);
    await screenshotAtWidth(staff, 'staff-transfers');

    await suggestion.getByRole('button', { name: `Ghi có cho ${player.username}` }).click();
    const confirm = staff.getByRole('dialog', { name: 'Xác nhận ghi có' });
    await expect(confirm).toContainText(`Ghi có chuyển khoản 50.000 VND (mã tham chiếu ${reference}) cho người chơi ${player.username}?`);
    await screenshotAtWidth(staff, 'staff-transfer-confirm');
    await confirm.getByRole('button', { name: 'Ghi có' }).click();
    await expect(staff.getByText(`Đã ghi có 50.000 KP cho ${player.username}.`)).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(transfer).toHaveCount(0);

    // The player's balance and history have it.
    await expectBalance(page, '50,000 KP');
    await page.goto('/transactions');
    await expect(page.getByRole('row').filter({ hasText: '50,000' }).first()).toContainText('Thành công');

    // It now shows under the transfers matched by hand.
    await staff.getByRole('button', { name: 'Đã khớp' }).click();
    await expect(staff).toHaveURL(/\/staff\/transfers\?matched=true$/);
    await expect(transfer).toContainText(`Đã ghi có cho ${player.username}`);
    await expect(transfer.getByRole('button')).toHaveCount(0);
    await expectNoSidewaysScroll(staff, viewport.width);
    await screenshotAtWidth(staff, 'staff-transfers-matched');
  });

  test(`an adjustment above the threshold waits for a second finance member (${name})`, async ({ page, newDevice }) => {
    test.setTimeout(240_000);
    const phone = viewport === PHONE;
    const player = await registerNewPlayer(page);
    await expect(page.getByTestId('header-balance')).toHaveText('0 KP');
    const reason = `Bồi hoàn giải đấu ${Date.now().toString(36)}`;

    const finance = await staffConsole(newDevice, viewport, 'staff-finance');
    await openSection(finance, phone, 'Điều chỉnh KP');
    await expect(finance.getByText(/^Điều chỉnh trên 200\.000 KP \(cộng hoặc thu hồi\) cần người thứ hai duyệt/)).toBeVisible();
    const form = finance.getByRole('form', { name: 'Tạo điều chỉnh KP' });
    await form.getByRole('textbox', { name: 'Tên đăng nhập người chơi' }).fill(player.username);
    await form.getByRole('textbox', { name: 'Số KP' }).fill('250000');
    await form.getByRole('textbox', { name: 'Lý do' }).fill(reason);
    await expectNoSidewaysScroll(finance, viewport.width);
    await screenshotAtWidth(finance, 'staff-adjustment-ask');
    await form.getByRole('button', { name: 'Gửi yêu cầu' }).click();
    await expect(
      finance.getByText(`Đã gửi yêu cầu điều chỉnh +250.000 KP cho ${player.username}; chờ một nhân viên Tài chính khác duyệt.`),
    ).toBeVisible();

    // Pending, and its asker cannot approve it.
    const asked = finance.getByRole('list', { name: 'Danh sách điều chỉnh KP' }).getByRole('listitem').filter({ hasText: reason });
    await expect(asked).toContainText('Chờ duyệt');
    await expect(asked).toContainText('+250.000 KP');
    await expect(asked).toContainText(player.username);
    await expect(asked.getByRole('button', { name: 'Duyệt' })).toBeDisabled();
    await expect(asked.getByRole('button', { name: 'Từ chối' })).toBeDisabled();
    await expect(asked).toContainText('Bạn không thể tự duyệt yêu cầu của mình');
    await expectNoSidewaysScroll(finance, viewport.width);
    await screenshotAtWidth(finance, 'staff-adjustment-pending');
    await page.reload();
    await expect(page.getByTestId('header-balance')).toHaveText('0 KP');

    // A second finance member approves it.
    const checker = await staffConsole(newDevice, viewport, 'staff-finance2');
    await checker.goto('/staff/adjustments?status=pending');
    const pending = checker.getByRole('list', { name: 'Danh sách điều chỉnh KP' }).getByRole('listitem').filter({ hasText: reason });
    await expect(pending).toContainText(player.username);
    await pending.getByRole('button', { name: 'Duyệt' }).click();
    const approve = checker.getByRole('dialog', { name: 'Duyệt điều chỉnh KP' });
    await expect(approve).toContainText(`Duyệt điều chỉnh +250.000 KP cho người chơi ${player.username}?`);
    await approve.getByRole('button', { name: 'Duyệt' }).click();
    await expect(checker.getByText(`Đã duyệt điều chỉnh +250.000 KP cho ${player.username}.`)).toBeVisible();
    await checker.getByRole('combobox', { name: 'Trạng thái' }).selectOption({ label: 'Đã áp dụng' });
    const applied = checker.getByRole('list', { name: 'Danh sách điều chỉnh KP' }).getByRole('listitem').filter({ hasText: reason });
    await expect(applied).toContainText('Đã áp dụng');
    await expect(applied).toContainText('staff-finance2');
    await expectNoSidewaysScroll(checker, viewport.width);
    await screenshotAtWidth(checker, 'staff-adjustment-approved');

    // The player's balance rises by 250,000 and the history lists the adjustment.
    await expectBalance(page, '250,000 KP');
    await page.goto('/transactions');
    await expect(page.getByRole('row').filter({ hasText: '250,000' }).first()).toContainText(/Điều chỉnh/);
  });
}
