import { DESKTOP, DEMO, expect, PHONE, screenshotAtWidth, signInAsDemo, test } from './fixtures';

const NO_CHARACTER = 'Bạn chưa có nhân vật trên máy chủ này. Hãy vào game tạo nhân vật rồi nạp lại.';

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`the coin top-up names the demo player's character, or says there is none (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signInAsDemo(page);
    await page.goto('/recharge/fsonline');
    await expect(page.getByRole('radiogroup', { name: 'Chọn mệnh giá' })).toBeVisible();
    const zone = page.getByRole('combobox', { name: 'Chọn máy chủ' });
    const submit = page.getByRole('main').getByRole('button', { name: 'Nạp', exact: true });

    // Server 1: the reference game names the character after the player.
    await zone.selectOption({ label: 'Máy chủ 1 - Thiên Long' });
    await expect(page.getByText(`Nhân vật: ${DEMO.username}`, { exact: true })).toBeVisible();
    await expect(page.getByText('Xu sẽ được nạp vào nhân vật này.')).toBeVisible();
    await page.getByRole('radio', { name: /^1,000 Xu/ }).check({ force: true });
    await expect(submit).toBeEnabled();
    await screenshotAtWidth(page, 'recharge-character');

    // Zone 98: no character there; the order cannot be sent.
    await zone.selectOption({ label: 'Máy chủ thử nghiệm (chưa có nhân vật)' });
    await expect(page.getByText(NO_CHARACTER)).toBeVisible();
    await expect(zone).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/^Nhân vật:/)).toHaveCount(0);
    await expect(submit).toBeDisabled();
    await screenshotAtWidth(page, 'recharge-no-character');

    // Back on server 1 the order can go again (not sent: the demo's KP stay for other journeys).
    await zone.selectOption({ label: 'Máy chủ 1 - Thiên Long' });
    await expect(page.getByText(`Nhân vật: ${DEMO.username}`, { exact: true })).toBeVisible();
    await expect(submit).toBeEnabled();
  });
}
