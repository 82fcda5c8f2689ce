import type { Locator, Page } from '@playwright/test';

import {
  DESKTOP,
  expect,
  expectNoSidewaysScroll,
  historyRows,
  PHONE,
  registerNewPlayer,
  reloadUntil,
  screenshotAtWidth,
  sendBankTransfer,
  test,
} from './fixtures';
import { FORBIDDEN, openSection, signIn } from './staff-fixtures';

/** The reference game loses the first delivery of every order on this zone (97) of every game. */
const LOSING_ZONE = 'Máy chủ thử nghiệm (lần gửi đầu bị mất)';
const GAME = 'Phong Thần Online';

/** A bank transfer of `amount` VND from the bank feed, and the wait for the KP in the header. */
async function fundPlayer(page: Page, username: string, amount: number, balance: string) {
  await sendBankTransfer(page, username, amount);
  const header = page.getByTestId('header-balance');
  await reloadUntil(page, header, () => expect(header).toHaveText(balance, { timeout: 1_000 }));
}

/** The player buys 1,000 Xu (100,000 KP) of Phong Thần Online on the zone whose first delivery is lost. */
async function buyOnLosingZone(page: Page, balanceAfter: string) {
  await page.goto('/recharge');
  await page.getByRole('link', { name: new RegExp(GAME) }).click();
  await page.getByRole('combobox', { name: 'Chọn máy chủ' }).selectOption({ label: LOSING_ZONE });
  const tile = page.getByRole('radio', { name: /^1,000 Xu/ });
  // The form settles once the game named the character on the chosen server.
  await expect(page.getByText(/^Nhân vật: /)).toBeVisible();
  await tile.check({ force: true });
  await page.getByRole('main').getByRole('button', { name: 'Nạp', exact: true }).click();
  await expect(page.getByTestId('header-balance')).toHaveText(balanceAfter);
}

/** The coin orders of the player's console page, one block each. */
const orderCards = (page: Page) => page.getByRole('list', { name: 'Đơn nạp game' }).getByRole('listitem');

async function openPlayerPage(page: Page, phone: boolean, username: string) {
  await openSection(page, phone, 'Tra cứu người chơi');
  await page.getByRole('searchbox', { name: 'Tìm người chơi' }).fill(username);
  await page.getByRole('button', { name: 'Tìm', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/staff/players\\?q=${username}$`));
  const results = page.getByRole('list', { name: 'Kết quả tìm kiếm' }).getByRole('listitem');
  await expect(results).toHaveCount(1);
  await results.getByRole('link', { name: username }).click();
  await expect(page.getByRole('heading', { level: 1, name: username })).toBeVisible();
}

/** Reads the page again until `card` says `status` (the game answers the console's resend a moment later). */
async function expectOrderStatus(page: Page, card: Locator, status: string) {
  const shown = card.getByTestId('order-status');
  await reloadUntil(page, shown, () => expect(shown).toHaveText(status, { timeout: 2_000 }));
}

/**
 * A new player with a coin order the game lost (zone 97), and a console on another device where
 * staff member `staffUsername` has opened that player's page.
 */
async function lostOrderOpenedBy(
  page: Page,
  newDevice: () => Promise<Page>,
  viewport: typeof DESKTOP,
  staffUsername: string,
) {
  const phone = viewport === PHONE;
  await page.setViewportSize(viewport);
  const player = await registerNewPlayer(page);
  await fundPlayer(page, player.username, 200_000, '200,000 KP');
  await buyOnLosingZone(page, '100,000 KP');

  const staff = await newDevice();
  await staff.setViewportSize(viewport);
  await staff.goto('/staff');
  await signIn(staff, staffUsername);
  await openPlayerPage(staff, phone, player.username);
  return { phone, player, staff };
}

/** The console's own XSRF cookie, which every call that changes something echoes. */
async function staffHeaders(page: Page) {
  const cookie = (await page.context().cookies()).find(({ name }) => name === 'STAFF-XSRF-TOKEN');
  if (!cookie) throw new Error('no STAFF-XSRF-TOKEN cookie');
  return {
    'X-XSRF-TOKEN': decodeURIComponent(cookie.value),
    'X-Requested-With': 'XMLHttpRequest',
    Accept: 'application/json',
  };
}

type PlayerDetail = {
  player: { id: string; lockedAt: string | null };
  wallet: { credit: number };
  orders: { id: string; status: string }[];
  sessions: unknown[];
  tickets: { id: string }[];
};

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`support resends a lost coin order and the game delivers it once (${name})`, async ({ page, newDevice }) => {
    // The game answers only the resend; a staff member's second sign-in within 30 s waits.
    test.setTimeout(180_000);
    // Support finds the player and the order waiting for the game.
    const { phone, staff } = await lostOrderOpenedBy(page, newDevice, viewport, 'staff-support');
    const order = orderCards(staff).first();
    await expect(orderCards(staff)).toHaveCount(1);
    await expect(order).toContainText('1.000 xu');
    await expect(order).toContainText('máy chủ 97');
    await expect(order.getByTestId('order-status')).toHaveText('Chờ game giao xu');
    await expect(staff.getByTestId('player-balance')).toHaveText('100.000 KP');
    // Support resends; refunding is finance's.
    await expect(order.getByRole('button', { name: 'Hoàn KP' })).toHaveCount(0);
    await expectNoSidewaysScroll(staff, viewport.width);
    await screenshotAtWidth(staff, 'staff-player-waiting');

    await order.getByRole('button', { name: 'Gửi lại cho game' }).click();
    await expect(staff.getByText('Đã gửi lại đơn cho game. Trạng thái cập nhật khi game xác nhận đã giao.')).toBeVisible();
    await expectOrderStatus(staff, order, 'Đã giao xu');
    await expect(order.getByRole('button', { name: 'Gửi lại cho game' })).toHaveCount(0);
    // The KP was taken once.
    await expect(staff.getByTestId('player-balance')).toHaveText('100.000 KP');
    await expect(staff.locator('[data-type="credit.pay"]')).toHaveCount(1);
    await expectNoSidewaysScroll(staff, viewport.width);
    await screenshotAtWidth(staff, 'staff-player-delivered');

    // The player's own history: the order once, delivered, and the balance as it was after paying.
    await page.goto('/transactions/all');
    const rows = historyRows(page, phone).filter({ hasText: `Nạp ${GAME}` });
    await reloadUntil(page, historyRows(page, phone), async () => {
      await expect(rows).toHaveCount(1, { timeout: 1_000 });
      await expect(rows.first()).toContainText('Thành công', { timeout: 1_000 });
    });
    await expect(page.getByTestId('header-balance')).toHaveText('100,000 KP');
  });

  test(`a viewer is shown no action on a player, and the services refuse each one (${name})`, async ({
    page,
    newDevice,
  }) => {
    test.setTimeout(180_000);
    const { player, staff } = await lostOrderOpenedBy(page, newDevice, viewport, 'staff-viewer');
    await expect(staff.getByText('Bạn chỉ xem được thông tin; vai trò của bạn không có thao tác nào với người chơi.')).toBeVisible();
    const main = staff.getByRole('main');
    await expect(orderCards(staff).first().getByTestId('order-status')).toHaveText('Chờ game giao xu');
    // No button at all: a new player's ledger fits its first page, and the rest are links.
    await expect(main.getByRole('button')).toHaveCount(0);
    await expect(main.getByRole('link', { name: 'Điều chỉnh KP' })).toHaveCount(0);
    await expectNoSidewaysScroll(staff, viewport.width);
    await screenshotAtWidth(staff, 'staff-player-viewer');

    // Straight at the API with the viewer's session: every action is the role refused.
    const id = new URL(staff.url()).pathname.split('/').pop() ?? '';
    const detail = async () => (await (await staff.request.get(`/api/staff/players/${id}`)).json()) as PlayerDetail;
    const before = await detail();
    const orderId = before.orders[0]?.id ?? '';
    expect(before.orders[0]?.status).toBe('awaiting_delivery');
    const headers = await staffHeaders(staff);
    const anyId = '0193f1c2-0000-7000-8000-000000000000';
    const attempts: [string, string, Record<string, unknown> | undefined][] = [
      ['resend', `/api/staff/orders/${orderId}/resend`, undefined],
      ['refund', `/api/staff/orders/${orderId}/refund`, { reason: 'e2e: a viewer tries' }],
      ['lock', `/api/staff/players/${id}/lock`, { reason: 'e2e: a viewer tries' }],
      ['revoke sessions', `/api/staff/players/${id}/sessions/revoke`, undefined],
      ['ticket reply', `/api/staff/tickets/${anyId}/reply`, { body: 'e2e: a viewer tries', close: true }],
      ['transfer match', `/api/staff/transfers/${anyId}/match`, { player: player.username }],
      ['adjustment ask', '/api/staff/adjustments', { userId: id, kp: 1000, reason: 'e2e: a viewer tries' }],
    ];
    for (const [what, url, data] of attempts) {
      const response = await staff.request.post(url, {
        headers: { ...headers, 'Idempotency-Key': `e2e-viewer-${Date.now()}-${what.replace(/\s/g, '-')}` },
        data: data ?? {},
      });
      expect(response.status(), `${what}: ${await response.text()}`).toBe(403);
      expect(((await response.json()) as { message: string }).message, what).toBe(FORBIDDEN);
    }

    // Nothing changed: the order still waits, the account is not locked, the KP and sessions are as they were.
    const after = await detail();
    expect(after.orders.map(({ id: each, status }) => [each, status])).toEqual([[orderId, 'awaiting_delivery']]);
    expect(after.player.lockedAt).toBeNull();
    expect(after.wallet.credit).toBe(100_000);
    expect(after.sessions).toHaveLength(before.sessions.length);
    await staff.reload();
    await expect(orderCards(staff).first().getByTestId('order-status')).toHaveText('Chờ game giao xu');
    await expect(staff.getByTestId('player-lock')).toHaveText('Không bị khóa');
    await expect(staff.getByTestId('player-balance')).toHaveText('100.000 KP');
    await page.reload();
    await expect(page.getByTestId('header-balance')).toHaveText('100,000 KP');
  });
}
