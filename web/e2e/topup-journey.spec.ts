
import { expect, historyDrawn, registerNewPlayer, reloadUntil, screenshots, sendBankTransfer, test } from './fixtures';

test('a player sends a phone card and sees it go from pending to credited', async ({ page }) => {
  await registerNewPlayer(page);
  await page.goto('/payment');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /Thẻ cào/ })).toBeVisible();
  await screenshots(page, 'payment');

  await page.getByRole('link', { name: /Thẻ cào/ }).click();
  await page.getByRole('button', { name: 'Tôi đã đọc và đồng ý' }).click();
  await page.getByRole('radio', { name: 'Viettel' }).check({ force: true });
  await page.getByRole('radio', { name: /^100,000 VND/ }).check({ force: true });
  await expect(page.getByRole('radio', { name: /^100,000 VND/ })).toBeChecked();
  await page.getByRole('textbox', { name: /^Mã thẻ/ }).fill('123456789015678');
  await page.getByRole('textbox', { name: /^Số seri/ }).fill('20000000000001');
  await screenshots(page, 'payment-card');
  await page.getByRole('main').getByRole('button', { name: 'Nạp thẻ' }).click();
  await expect(page.getByText('Gửi thẻ thành công!')).toBeVisible();
  await page.getByRole('link', { name: 'Xem lịch sử giao dịch' }).click();

  // The aggregator's simulator answers after KID_PAYMENT__SIMULATOR_DELAY_MS (8 s in the test
  // command's portal, scripts/lib.sh). The pending row comes from the wallet once it has taken
  // payment's `topup.opened` event, which a loaded machine may deliver after the page first
  // read the history: read it again until the row is there, each time once the page has
  // rendered its table (a loaded machine takes more than a moment).
  await expect(page).toHaveURL(/\/transactions$/);
  const row = page.getByRole('row').filter({ hasText: '20000000000001' });
  const table = page.getByRole('table', { name: 'Lịch sử giao dịch' });
  await reloadUntil(page, historyDrawn(page, table), () => expect(row).toContainText('Đang xử lý', { timeout: 500 }));
  await screenshots(page, 'transactions-card-pending');
  // The page reads /me and the history side by side: the credit can land between the two
  // reads, so both are awaited on the same reload.
  await reloadUntil(page, table, async () => {
    await expect(row).toContainText('Thành công', { timeout: 1_000 });
    await expect(page.getByTestId('header-balance')).toHaveText('85,000 KP', { timeout: 1_000 });
  });
  await screenshots(page, 'transactions-card-credited');
});

test('a bank transfer sent by the bank feed raises the balance in the header', async ({ page }) => {
  const player = await registerNewPlayer(page);
  await expect(page.getByTestId('header-balance')).toHaveText('0 KP');
  await page.goto('/payment/bank-transfer');
  await expect(page.getByText(/Nội dung chuyển khoản/).first()).toBeVisible();
  await expect(page.locator('svg[role="img"], [data-testid="copy-field"]').first()).toBeVisible();
  await screenshots(page, 'payment-bank-transfer');

  await sendBankTransfer(page, player.username, 500_000);

  const balance = page.getByTestId('header-balance');
  await reloadUntil(page, balance, () => expect(balance).toHaveText('500,000 KP', { timeout: 1_000 }));
  await page.goto('/transactions');
  await expect(page.getByRole('row').filter({ hasText: '500,000' }).first()).toContainText('Thành công');
  await page.goto('/payment/e-wallet');
  await screenshots(page, 'payment-e-wallet');
});
