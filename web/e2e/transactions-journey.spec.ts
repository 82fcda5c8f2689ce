import { DESKTOP, expect, expectNoSidewaysScroll, PHONE, screenshots, test, waitForHydration } from './fixtures';

/** The player the portal seeds for demos, with five transactions (see the backend seed). */
const DEMO = { username: 'demo', password: 'Demo@123456' };

test('the demo player sees their seeded transactions, on desktop and on a phone', async ({ page }) => {
  await page.goto('/login');
  await waitForHydration(page);
  await page.getByRole('textbox', { name: 'Tên đăng nhập' }).fill(DEMO.username);
  await page.getByLabel(/^Mật khẩu/).fill(DEMO.password);
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/transactions');
  await expect(page.getByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Lịch sử giao dịch' });
  await expect(table).toBeVisible();
  const row = (text: string) => table.getByRole('row').filter({ hasText: text });

  // (a) Bank transfer from Vietcombank.
  await expect(table.getByText('Nạp KP', { exact: true }).first()).toBeVisible();
  await expect(row('Vietcombank')).toContainText('500,000 VND');
  await expect(row('Vietcombank')).toContainText('+500,000 KP');
  // (b) A Viettel card that credited less than its face value.
  await expect(row('Seri: 10000000000001')).toContainText('Viettel');
  await expect(row('Seri: 10000000000001')).toContainText('100,000 VND');
  await expect(row('Seri: 10000000000001')).toContainText('+85,000 KP');
  await expect(row('Seri: 10000000000001')).toContainText('Thành công');
  // (c) A Mobifone card still being processed.
  await expect(row('Seri: 200000000000002')).toContainText('Đang xử lý');
  // (d) A Vinaphone card that does not exist.
  await expect(row('Seri: 30000000000003')).toContainText('Thất bại');
  await expect(row('Seri: 30000000000003')).toContainText('Thẻ không tồn tại');
  // (e) KP spent on Kiếm Thế 2.
  const pay = row('Nạp Kiếm Thế 2');
  await expect(pay).toContainText('-20,000 KP');
  await expect(pay.getByText('+2,000 Vàng', { exact: true })).toBeVisible();
  await expect(pay.getByText('+200 Vàng thưởng', { exact: true })).toBeVisible();

  // The type's tooltip carries the transaction id.
  await pay.getByText('Nạp Kiếm Thế 2', { exact: true }).hover();
  await expect(page.getByRole('tooltip')).toHaveText(/^Mã giao dịch: \S+$/);
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip')).toBeHidden();

  // On a phone the table gives way to a list of stacked items, each with its status and time
  // fully in view; the page itself does not get wider.
  await page.setViewportSize(PHONE);
  const list = page.getByRole('list', { name: 'Lịch sử giao dịch' });
  await expect(list).toBeVisible();
  await expect(table).toHaveCount(0);
  const item = (text: string) => list.getByRole('listitem').filter({ hasText: text });
  await expect(item('Vietcombank')).toContainText('500,000 VND');
  await expect(item('Seri: 10000000000001')).toContainText('Thành công');
  await expect(item('Seri: 200000000000002')).toContainText('Đang xử lý');
  const failed = item('Seri: 30000000000003');
  await expect(failed).toContainText('Thẻ không tồn tại');
  for (const label of ['Giá trị giao dịch', 'Chi tiết', 'Thời gian']) {
    await expect(failed.getByText(label, { exact: true })).toBeVisible();
  }
  const status = failed.getByText('Thất bại', { exact: true });
  const time = failed.locator('time');
  await expect(time).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  for (const part of [status, time]) {
    await part.scrollIntoViewIfNeeded();
    await expect(part).toBeInViewport({ ratio: 1 });
  }
  await expectNoSidewaysScroll(page, PHONE.width);

  // Back on a wide screen, the table returns.
  await page.setViewportSize(DESKTOP);
  await expect(table).toBeVisible();
  await expect(list).toHaveCount(0);

  await screenshots(page, 'transactions-demo');
});
