import { readFile } from 'node:fs/promises';

import { DESKTOP, expect, expectNoSidewaysScroll, historyRows, PHONE, screenshotAtWidth, signInAsDemo, test } from './fixtures';

/** The demo player's seeded card that the aggregator did not find (see the backend seed). */
const NOT_FOUND_SERIAL = '30000000000003';
const SEEDED_SERIALS = ['10000000000001', '200000000000002', NOT_FOUND_SERIAL];

/** Today in Vietnam (UTC+7), as YYYY-MM-DD, and the day after. */
function vietnamDays() {
  const now = Date.now() + 7 * 3_600_000;
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  return { today: day(now), tomorrow: day(now + 86_400_000) };
}

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`the demo player pages, filters and exports the full history, and opens a receipt (${name})`, async ({
    page,
  }) => {
    const phone = viewport === PHONE;
    await page.setViewportSize(viewport);
    await signInAsDemo(page);

    // Pages of 2 rather than 20, so that the demo's few transactions take several of the real
    // server's keyset pages.
    await page.route(/\/api\/transactions\?/, (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', '2');
      return route.continue({ url: url.toString() });
    });

    await page.goto('/transactions');
    await expect(page.getByRole('heading', { level: 1, name: 'Lịch sử giao dịch' })).toBeVisible();
    await page.getByRole('link', { name: 'Xem toàn bộ lịch sử' }).click();
    await expect(page).toHaveURL(/\/transactions\/all$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Toàn bộ lịch sử giao dịch' })).toBeVisible();

    // Paging: 'Xem thêm' until the server has no next cursor.
    const rows = historyRows(page, phone);
    await expect(rows).toHaveCount(2);
    await expect(page.getByText('Đang hiển thị 2 giao dịch.')).toBeVisible();
    await screenshotAtWidth(page, 'history-first-page');
    const more = page.getByRole('button', { name: 'Xem thêm' });
    let pages = 1;
    while (await more.isVisible()) {
      const before = await rows.count();
      await more.click();
      // The next page's rows come below, or (a last page that came out empty) the button goes.
      await expect(async () => {
        expect((await rows.count()) > before || !(await more.isVisible())).toBe(true);
      }).toPass();
      pages += 1;
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    await expect(more).toBeHidden();
    const total = await rows.count();
    expect(total).toBeGreaterThanOrEqual(5);
    await expect(page.getByText(`Đã hiển thị tất cả ${total} giao dịch.`)).toBeVisible();
    for (const serial of SEEDED_SERIALS) await expect(rows.filter({ hasText: `Seri: ${serial}` })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Vietcombank' }).first()).toContainText('500,000 VND');
    // Each transaction once: every receipt link is another.
    const receipts = await page.getByRole('link', { name: 'Xem biên lai' }).evaluateAll((links) =>
      links.map((link) => link.getAttribute('href')),
    );
    expect(new Set(receipts).size).toBe(total);
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'history-all-pages');

    // Filters: into the query string, and the list follows.
    await page.getByRole('combobox', { name: 'Loại giao dịch' }).selectOption({ label: 'Nạp KP bằng thẻ cào' });
    await page.getByRole('combobox', { name: 'Trạng thái' }).selectOption({ label: 'Thất bại' });
    await page.getByRole('button', { name: 'Lọc', exact: true }).click();
    await expect(page).toHaveURL(/\/transactions\/all\?type=topup\.card&status=failed$/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`Seri: ${NOT_FOUND_SERIAL}`);
    await expect(rows.first()).toContainText('Thẻ không tồn tại');
    await expect(rows.first()).toContainText('Thất bại');
    await expect(page.getByText('Đã hiển thị tất cả 1 giao dịch.')).toBeVisible();
    await screenshotAtWidth(page, 'history-filtered');

    // A range of days that holds nothing yet, then the back button returns to the filters before.
    const { tomorrow } = vietnamDays();
    await page.getByLabel('Từ ngày').click();
    await page.getByLabel('Từ ngày').fill(tomorrow);
    await page.getByRole('button', { name: 'Lọc', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`from=${tomorrow}`));
    await expect(page.getByText('Không có giao dịch nào khớp bộ lọc.')).toBeVisible();
    await screenshotAtWidth(page, 'history-empty');
    await page.goBack();
    await expect(page).toHaveURL(/\/transactions\/all\?type=topup\.card&status=failed$/);
    await expect(rows).toHaveCount(1);
    await expect(page.getByLabel('Từ ngày')).toHaveValue('');

    // The CSV of the same filters, as the browser downloads it.
    const csv = page.getByRole('link', { name: 'Tải CSV' });
    await expect(csv).toHaveAttribute('href', '/api/transactions/export.csv?type=topup.card&status=failed');
    const [download] = await Promise.all([page.waitForEvent('download'), csv.click()]);
    expect(download.suggestedFilename()).toMatch(/^kid-lich-su-giao-dich-\d{8}\.csv$/);
    const file = await readFile(await download.path());
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = file.subarray(3).toString('utf8').trimEnd().split(/\r?\n/);
    expect(lines[0]).toMatch(/^Mã giao dịch,/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`Seri: ${NOT_FOUND_SERIAL}`);
    expect(lines[1]).toContain('Thẻ không tồn tại');
    expect(lines[1]).toContain('Thất bại');
    // The page is still the history: the download did not navigate away.
    await expect(page).toHaveURL(/\/transactions\/all\?type=topup\.card&status=failed$/);

    // The receipt of that row, and back to the same filtered page.
    await rows.first().getByRole('link', { name: 'Xem biên lai' }).click();
    await expect(page).toHaveURL(/\/transactions\/[0-9a-f-]{36}$/);
    const id = new URL(page.url()).pathname.split('/').at(-1)!;
    await expect(page.getByRole('heading', { level: 1, name: 'Biên lai giao dịch' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Nạp KP' })).toBeVisible();
    await expect(page.getByTestId('receipt-id')).toHaveText(id);
    await expect(page.getByText('Thẻ không tồn tại')).toBeVisible();
    await expect(page.getByText(`Seri: ${NOT_FOUND_SERIAL}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'In biên lai' })).toBeVisible();
    await screenshotAtWidth(page, 'receipt');
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('button', { name: 'In biên lai' })).toBeHidden();
    await screenshotAtWidth(page, 'receipt-print');
    await page.emulateMedia({ media: 'screen' });
    await page.getByRole('link', { name: 'Quay lại lịch sử giao dịch' }).click();
    await expect(page).toHaveURL(/\/transactions\/all\?type=topup\.card&status=failed$/);
    await expect(rows).toHaveCount(1);

    // A filter the server refuses shows its message under the filter; an unknown receipt says so.
    await page.goto('/transactions/all?status=done');
    await expect(page.getByText('Trạng thái giao dịch không hợp lệ.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Tải CSV' })).toBeDisabled();
    await screenshotAtWidth(page, 'history-refused-filter');
    await page.goto('/transactions/0193f1c2-0000-7000-8000-000000000000');
    await expect(page.getByText('Không tìm thấy giao dịch.')).toBeVisible();
    await screenshotAtWidth(page, 'receipt-not-found');
  });
}
