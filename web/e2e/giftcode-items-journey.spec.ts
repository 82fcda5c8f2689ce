import { DESKTOP, expect, expectNoSidewaysScroll, PHONE, registerNewPlayer, screenshotAtWidth, test } from './fixtures';

/**
 * The development code of in-game items (see the backend seed): Phong Thần Online's starter
 * pack, once per player, sent to a character on a zone the player chooses.
 */
const STARTER = {
  code: 'KID-TANTHU',
  campaign: 'Quà tân thủ Phong Thần',
  game: 'Phong Thần Online',
  items: '1 × Rương Tân Thủ, 5 × Bùa May Mắn',
};

/** A zone of the game where the reference game has a character named after the player. */
const ZONE = 'Máy chủ 1 - Thiên Long';
/** Zone 98, seeded on every game for development: the reference game has no character there. */
const NO_CHARACTER_ZONE = 'Máy chủ thử nghiệm (chưa có nhân vật)';

const ZONE_REQUIRED = `Hãy chọn máy chủ của ${STARTER.game} để nhận quà.`;
const NO_CHARACTER = 'Bạn chưa có nhân vật trên máy chủ này. Hãy vào game tạo nhân vật rồi nhận quà lại.';
const SENT = 'Quà đã được gửi tới game, vật phẩm sẽ vào nhân vật của bạn trong giây lát.';
const ALREADY_REDEEMED = 'Bạn đã nhận quà của chương trình này rồi.';

// The starter code gives its items once per player, and the journey runs at two widths: each
// run signs up a player of its own, whose username is the reference game's character name.
for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`a new player redeems the starter items code on a zone of ${STARTER.game} (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const player = await registerNewPlayer(page);

    await page.goto('/giftcode');
    await expect(page.getByRole('heading', { level: 1, name: 'Nhập giftcode' })).toBeVisible();
    const code = page.getByRole('textbox', { name: 'Mã quà tặng' });
    const submit = page.getByRole('main').getByRole('button', { name: 'Nhận quà' });
    const zone = page.getByRole('combobox', { name: 'Máy chủ nhận quà' });
    await expect(zone).toHaveCount(0);

    // A code of items: the server asks for a zone of its game, and the code stays.
    await code.fill(STARTER.code);
    await submit.click();
    await expect(zone).toBeVisible();
    await expect(page.getByText(ZONE_REQUIRED)).toBeVisible();
    await expect(zone).toHaveAttribute('aria-invalid', 'true');
    await expect(code).not.toHaveAttribute('aria-invalid', 'true');
    await expect(code).toHaveValue(STARTER.code);
    await expect(page.getByText(new RegExp(`vật phẩm trong game ${STARTER.game}`))).toBeVisible();
    await expect(zone.locator('option', { hasText: ZONE })).toHaveCount(1);
    await expect(zone.locator('option', { hasText: NO_CHARACTER_ZONE })).toHaveCount(1);
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'giftcode-items-zone');

    // A zone without a character of the player: said under the picker.
    await zone.selectOption({ label: NO_CHARACTER_ZONE });
    await submit.click();
    await expect(page.getByText(NO_CHARACTER)).toBeVisible();
    await expect(zone).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(ZONE_REQUIRED)).toHaveCount(0);
    await expect(code).not.toHaveAttribute('aria-invalid', 'true');
    await expect(code).toHaveValue(STARTER.code);
    await screenshotAtWidth(page, 'giftcode-items-no-character');

    // A zone with one: the items go to the game, then arrive on the character.
    await zone.selectOption({ label: ZONE });
    await expect(page.getByText(NO_CHARACTER)).toHaveCount(0);
    await submit.click();
    const sent = page.getByRole('status').filter({ hasText: SENT });
    await expect(sent).toBeVisible();
    await expect(sent).toContainText(`Vật phẩm: ${STARTER.items}`);
    await expect(sent).toContainText(`Máy chủ: ${ZONE}`);
    await expect(sent).toContainText(`Nhân vật: ${player.username}`);

    // The page asks again every 2 s, 5 times at most; the reference game answers at once.
    const delivered = page.getByText(
      `Nhận quà thành công! Đã nhận ${STARTER.items} cho nhân vật ${player.username} tại ${ZONE} (${STARTER.game}).`,
    );
    await expect(delivered).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(`Chương trình: ${STARTER.campaign}`)).toBeVisible();
    await expect(sent).toHaveCount(0);
    await expect(code).toHaveValue('');
    await expect(zone).toHaveCount(0);
    await expectNoSidewaysScroll(page, viewport.width);
    await screenshotAtWidth(page, 'giftcode-items-delivered');

    // Once per player: refused under the code, before any zone is asked for.
    await code.fill(STARTER.code);
    await submit.click();
    await expect(page.getByText(ALREADY_REDEEMED)).toBeVisible();
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(zone).toHaveCount(0);
    await expect(delivered).toHaveCount(0);
  });
}
