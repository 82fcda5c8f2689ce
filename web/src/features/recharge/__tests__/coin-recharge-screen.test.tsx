import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { USER_QUERY_KEY } from '@/lib/auth';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import { captchaStub as captcha } from '@/testing/captcha-stub';
import { buildUser } from '@/testing/data';
import { captchaTokenFor, validationError } from '@/testing/mocks/common';
import { db } from '@/testing/mocks/db';
import {
  CHARACTER_UNCHECKED,
  NO_CHARACTER,
  NOT_ENOUGH_CREDIT,
  PRODUCT_NOT_FOUND,
  rechargeDb,
} from '@/testing/mocks/recharge-handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import type { User } from '@/types/api-schema';

vi.mock('@/hooks/use-captcha', async (importOriginal) =>
  (await import('@/testing/captcha-stub')).stubCaptcha(await importOriginal()),
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const main = () => within(screen.getByRole('main'));
const tile = (coins: RegExp) => screen.getByRole('radio', { name: coins });
const tileText = (coins: RegExp) => tile(coins).closest('label')?.textContent;
const zoneSelect = () => screen.getByRole('combobox', { name: 'Chọn máy chủ' });
const submitButton = () => main().getByRole('button', { name: 'Nạp' });

/** Opens a game's top-up and waits for its form. */
async function openGame(code: string, user: User = buildUser({ credit: 1_000_000 })) {
  const rendered = renderApp(`/recharge/${code}`, { user });
  await screen.findByRole('radiogroup', { name: 'Chọn mệnh giá' });
  return rendered;
}

/** Captures what the top-up call sends, leaving the answer to the fake server. */
function capturePosts(code = 'fsonline') {
  const posts: { key: string | null; body: unknown }[] = [];
  server.use(
    http.post(`/api/payment/coin-recharge/${code}`, async ({ request }) => {
      posts.push({ key: request.headers.get('Idempotency-Key'), body: await request.clone().json() });
      return undefined;
    }),
  );
  return posts;
}

beforeEach(() => {
  captcha.reset();
});

describe('coin top-up: what it offers', () => {
  it("shows the game's active events", async () => {
    await openGame('fsonline');
    expect(screen.getByRole('heading', { level: 2, name: 'Phong Thần Online' })).toBeInTheDocument();
    const events = screen.getByRole('list', { name: 'Sự kiện đang diễn ra' });
    const items = within(events).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Mừng xuân');
    expect(items[0]).toHaveTextContent('Tặng thêm 10% Xu cho mỗi lần nạp.');
    expect(items[1]).toHaveTextContent('Vòng quay may mắn');
    expect(items[1]).toHaveTextContent('Nhận 50 điểm may mắn cho mỗi 100 Xu.');
  });

  it('shows rates as percent and points without float noise, in the game coin', async () => {
    rechargeDb.infos.jxsj2!.rechargeEvents = [
      { name: 'A', type: 'recharge.bonus_coin', config: { coinBonusRate: 0.07 }, startsAt: null, endsAt: null },
      { name: 'B', type: 'recharge.bonus_lottery_point', config: { extpointRate: 0.125 }, startsAt: null, endsAt: null },
    ];
    await openGame('jxsj2');
    const events = screen.getByRole('list', { name: 'Sự kiện đang diễn ra' });
    expect(events).toHaveTextContent('Tặng thêm 7% Vàng cho mỗi lần nạp.');
    expect(events).toHaveTextContent('Nhận 12.5 điểm may mắn cho mỗi 100 Vàng.');
  });

  it('shows no event banner when none is active', async () => {
    await openGame('jxonline2');
    expect(screen.queryByRole('list', { name: 'Sự kiện đang diễn ra' })).toBeNull();
  });

  it('lists the servers', async () => {
    await openGame('fsonline');
    const options = within(zoneSelect()).getAllByRole('option');
    expect(options.map((option) => [option.textContent, (option as HTMLOptionElement).value])).toEqual([
      ['-- Chọn máy chủ --', ''],
      ['Máy chủ 1 - Thiên Long', '1'],
      ['Máy chủ 2 - Bạch Hổ', '2'],
    ]);
  });

  it("reads 'Cần' on tiles the balance covers and 'Không đủ' (disabled) on the others", async () => {
    await openGame('fsonline', buildUser({ credit: 100_000 }));
    const tiles = within(screen.getByRole('radiogroup', { name: 'Chọn mệnh giá' })).getAllByRole('radio');
    expect(tiles.map((input) => input.closest('label')?.textContent)).toEqual([
      '200 XuCần: 20,000 KP',
      '500 XuCần: 50,000 KP',
      '1,000 Xu+50 Xu thưởngCần: 100,000 KP',
      '2,000 Xu+150 Xu thưởngKhông đủ 200,000',
      '5,000 Xu+500 Xu thưởngKhông đủ 500,000',
      '10,000 Xu+1,500 Xu thưởngKhông đủ 1,000,000',
    ]);
    expect(tiles.map((input) => (input as HTMLInputElement).disabled)).toEqual([false, false, false, true, true, true]);
  });

  it('keeps submit disabled until a server and a tile are chosen', async () => {
    const { events } = await openGame('fsonline');
    expect(submitButton()).toBeDisabled();

    await events.selectOptions(zoneSelect(), 'Máy chủ 2 - Bạch Hổ');
    expect(submitButton()).toBeDisabled();

    await events.click(tile(/^500 Xu/));
    expect(tile(/^500 Xu/)).toBeChecked();
    expect(submitButton()).toBeEnabled();
  });

  it('clears the chosen server when another game is opened', async () => {
    const { events } = await openGame('fsonline');
    await events.selectOptions(zoneSelect(), 'Máy chủ 1 - Thiên Long');
    await events.click(tile(/^500 Xu/));
    expect(zoneSelect()).toHaveValue('1');

    // Both games have a server 1: it must not stay chosen for the other game.
    await events.click(screen.getByRole('link', { name: 'Kiếm Thế 2' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Kiếm Thế 2' })).toBeInTheDocument();
    await screen.findByRole('option', { name: 'Máy chủ 1 - Long Môn' });
    expect(zoneSelect()).toHaveValue('');
    const tiles = within(screen.getByRole('radiogroup', { name: 'Chọn mệnh giá' })).getAllByRole('radio');
    expect(tiles.filter((input) => (input as HTMLInputElement).checked)).toEqual([]);
    expect(submitButton()).toBeDisabled();
  });

  it('with no KP, no tile can be chosen and it suggests topping up', async () => {
    const { events } = await openGame('fsonline', buildUser({ credit: 0 }));
    const tiles = within(screen.getByRole('radiogroup', { name: 'Chọn mệnh giá' })).getAllByRole('radio');
    expect(tiles.every((input) => (input as HTMLInputElement).disabled)).toBe(true);
    expect(tileText(/^200 Xu/)).toBe('200 XuKhông đủ 20,000');
    expect(screen.getByText(/Số dư KP của bạn chưa đủ cho mệnh giá nào/)).toBeInTheDocument();
    await events.selectOptions(zoneSelect(), '1');
    expect(submitButton()).toBeDisabled();
  });

  it('sends an unknown game back to the game list', async () => {
    const { router } = renderApp('/recharge/khong-co', { user: true });
    expect(await screen.findByText('Hãy chọn một sản phẩm bạn muốn thực hiện lệnh nạp.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/recharge');
    expect(db.requests).toContain('GET /api/payment/coin-recharge/khong-co');
    expect(screen.queryByText(PRODUCT_NOT_FOUND)).toBeNull();
  });
});

describe('coin top-up: sending', () => {
  it('sends the server, game, amount and captcha token with an Idempotency-Key', async () => {
    const posts = capturePosts();
    const { events } = await openGame('fsonline', buildUser({ credit: 250_000 }));
    await events.selectOptions(zoneSelect(), 'Máy chủ 1 - Thiên Long');
    await events.click(tile(/^1,000 Xu/));
    await events.click(submitButton());

    await screen.findByText(/^Nạp thành công/);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({
      zoneId: 1,
      productCode: 'fsonline',
      creditAmount: 100000,
      gReCaptchaToken: captchaTokenFor('coinRechargeFormSubmit'),
    });
    expect(posts[0]!.key).toMatch(UUID);
    expect(captcha.actions).toEqual(['coinRechargeFormSubmit']);
    const csrfAt = db.requests.lastIndexOf('GET /api/auth/csrf-cookie');
    expect(csrfAt).toBeGreaterThanOrEqual(0);
    expect(csrfAt).toBeLessThan(db.requests.indexOf('POST /api/payment/coin-recharge/fsonline'));

    // Each click is a new attempt with a key of its own (the selection cleared: choose again).
    await events.selectOptions(zoneSelect(), 'Máy chủ 1 - Thiên Long');
    await events.click(tile(/^200 Xu/));
    await events.click(submitButton());
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]!.key).toMatch(UUID);
    expect(posts[1]!.key).not.toBe(posts[0]!.key);
    await waitFor(() => expect(rechargeDb.orders).toHaveLength(2));
  });

  it('says what was credited with each bonus, clears the selection and lowers the balance', async () => {
    const { events, queryClient } = await openGame('fsonline', buildUser({ credit: 250_000 }));
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    expect(screen.getByTestId('header-balance')).toHaveTextContent('250,000 KP');
    await events.selectOptions(zoneSelect(), 'Máy chủ 2 - Bạch Hổ');
    await events.click(tile(/^1,000 Xu/));
    await events.click(submitButton());

    const title = await screen.findByText('Nạp thành công 1,000 Xu vào máy chủ Máy chủ 2 - Bạch Hổ.');
    const banner = title.closest('[role="status"]') as HTMLElement;
    expect(banner).toHaveTextContent('Thưởng sự kiện: +100 Xu.');
    expect(banner).toHaveTextContent('Thưởng mốc nạp: +50 Xu.');
    expect(banner).toHaveTextContent('Điểm may mắn nhận được: +500.');
    expect(banner).toHaveTextContent('Hãy đăng nhập lại nhân vật để cập nhật số Xu trong game.');

    expect(invalidate).toHaveBeenCalledWith({ queryKey: USER_QUERY_KEY });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: TRANSACTION_HISTORY_QUERY_KEY });
    await waitFor(() => expect(screen.getByTestId('header-balance')).toHaveTextContent('150,000 KP'));
    expect(screen.getByTestId('credit-bar')).toHaveTextContent('Số dư: 150,000 KP');
    // The 200,000 tile is now beyond the balance.
    expect(tileText(/^2,000 Xu/)).toBe('2,000 Xu+150 Xu thưởngKhông đủ 200,000');

    // The selection clears (spec section 4): the tile and the server.
    const tiles = within(screen.getByRole('radiogroup', { name: 'Chọn mệnh giá' })).getAllByRole('radio');
    expect(tiles.filter((input) => (input as HTMLInputElement).checked)).toEqual([]);
    expect(zoneSelect()).toHaveValue('');
    expect(submitButton()).toBeDisabled();

    // The success message can be closed.
    await events.click(within(banner).getByRole('button', { name: 'Đóng' }));
    expect(screen.queryByText(/^Nạp thành công/)).toBeNull();
  });

  it('shows only the coin line and the log-in note without bonuses', async () => {
    const { events } = await openGame('jxonline2', buildUser({ credit: 50_000 }));
    await events.selectOptions(zoneSelect(), '1');
    await events.click(tile(/^200 Xu/));
    await events.click(submitButton());

    const title = await screen.findByText('Nạp thành công 200 Xu vào máy chủ Máy chủ 1 - Tương Dương.');
    const banner = title.closest('[role="status"]') as HTMLElement;
    expect(banner).toHaveTextContent('Hãy đăng nhập lại nhân vật để cập nhật số Xu trong game.');
    expect(banner).not.toHaveTextContent('Thưởng sự kiện');
    expect(banner).not.toHaveTextContent('Thưởng mốc nạp');
    expect(banner).not.toHaveTextContent('Điểm may mắn');
  });

  it("names the game's own coin", async () => {
    const { events } = await openGame('jxsj2', buildUser({ credit: 20_000 }));
    await events.selectOptions(zoneSelect(), 'Máy chủ 3 - Phượng Tường');
    await events.click(tile(/^2,000 Vàng/));
    await events.click(submitButton());
    const title = await screen.findByText('Nạp thành công 2,000 Vàng vào máy chủ Máy chủ 3 - Phượng Tường.');
    const banner = title.closest('[role="status"]') as HTMLElement;
    expect(banner).toHaveTextContent('Thưởng sự kiện: +100 Vàng.');
    expect(banner).toHaveTextContent('Hãy đăng nhập lại nhân vật để cập nhật số Vàng trong game.');
  });

  it('does nothing when the captcha has not loaded', async () => {
    captcha.loaded = false;
    const { events } = await openGame('fsonline');
    await events.selectOptions(zoneSelect(), '1');
    await events.click(tile(/^200 Xu/));
    await events.click(submitButton());
    await waitFor(() => expect(submitButton()).not.toHaveAttribute('data-loading'));
    expect(db.requests).not.toContain('POST /api/payment/coin-recharge/fsonline');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('coin top-up: refusals', () => {
  async function submitFsonline(user: User = buildUser({ credit: 100_000 })) {
    const rendered = await openGame('fsonline', user);
    await rendered.events.selectOptions(zoneSelect(), '1');
    await rendered.events.click(tile(/^500 Xu/));
    await rendered.events.click(submitButton());
    return rendered;
  }

  it("shows the server's message when the balance no longer covers the amount (409)", async () => {
    const rendered = await openGame('fsonline', buildUser({ credit: 100_000 }));
    // Spent elsewhere after the page loaded.
    db.user = { ...db.user, credit: 10_000 };
    await rendered.events.selectOptions(zoneSelect(), '1');
    await rendered.events.click(tile(/^500 Xu/));
    await rendered.events.click(submitButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Nạp game không thành công');
    expect(alert).toHaveTextContent(NOT_ENOUGH_CREDIT);
    expect(rechargeDb.orders).toHaveLength(0);
  });

  it("shows a 503's message", async () => {
    server.use(
      http.post('/api/payment/coin-recharge/fsonline', () =>
        HttpResponse.json({ message: 'Máy chủ game đang bảo trì, vui lòng thử lại sau.' }, { status: 503 }),
      ),
    );
    await submitFsonline();
    expect(await screen.findByRole('alert')).toHaveTextContent('Máy chủ game đang bảo trì, vui lòng thử lại sau.');
  });

  it('says the payment is being processed, and shows no coin, when the wallet has not confirmed it (202)', async () => {
    const processing = 'Giao dịch của bạn đang được xử lý. Hãy kiểm tra lịch sử giao dịch trước khi nạp lại.';
    server.use(
      http.post('/api/payment/coin-recharge/fsonline', () =>
        HttpResponse.json({ orderId: 'o-1', transactionId: '', status: 'processing', message: processing }, { status: 202 }),
      ),
    );
    await submitFsonline();
    expect(await screen.findByRole('status')).toHaveTextContent(processing);
    expect(screen.queryByText(/Nạp thành công/)).not.toBeInTheDocument();
  });

  it('says the error is unknown, with the HTTP status, when a 500 has no message', async () => {
    server.use(http.post('/api/payment/coin-recharge/fsonline', () => new HttpResponse(null, { status: 500 })));
    await submitFsonline();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Lỗi không xác định, vui lòng thử lại sau. Mã lỗi: 500',
    );
  });

  it("says the error is unknown, with the client's code, when no answer came", async () => {
    server.use(http.post('/api/payment/coin-recharge/fsonline', () => HttpResponse.error()));
    await submitFsonline();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Lỗi không xác định, vui lòng thử lại sau. Mã lỗi: ERR_NETWORK',
    );
  });

  it('puts 422 field messages beside the server and the amount', async () => {
    server.use(
      http.post('/api/payment/coin-recharge/fsonline', () =>
        validationError({ zoneId: ['Máy chủ bạn chọn không tồn tại.'], creditAmount: ['Mệnh giá bạn chọn không hợp lệ.'] }),
      ),
    );
    const { events } = await submitFsonline();
    expect(await screen.findByText('Máy chủ bạn chọn không tồn tại.')).toBeInTheDocument();
    expect(screen.getByText('Mệnh giá bạn chọn không hợp lệ.')).toBeInTheDocument();
    expect(zoneSelect()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).toBeNull();

    // A new choice clears the message beside it.
    await events.click(tile(/^200 Xu/));
    await waitFor(() => expect(screen.queryByText('Mệnh giá bạn chọn không hợp lệ.')).toBeNull());
  });

  it('shows a 422 message no field takes (a refused captcha) in the alert', async () => {
    server.use(
      http.post('/api/payment/coin-recharge/fsonline', () =>
        validationError({ gReCaptchaToken: ['Không xác minh được bạn không phải là người máy, hãy thử lại.'] }),
      ),
    );
    await submitFsonline();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Không xác minh được bạn không phải là người máy, hãy thử lại.',
    );
  });
});

describe('coin top-up: the character on the chosen server', () => {
  const CHARACTER = '/api/payment/coin-recharge/fsonline/character';
  const characterChecks = () => db.requests.filter((request) => request.startsWith(`GET ${CHARACTER}`));

  it('names the character the coin would go to once a server is chosen', async () => {
    const searches: string[] = [];
    server.use(
      http.get(CHARACTER, ({ request }) => {
        searches.push(new URL(request.url).search);
        return undefined;
      }),
    );
    const { events } = await openGame('fsonline', buildUser({ username: 'hiepkhach', credit: 100_000 }));
    expect(screen.queryByText(/^Nhân vật:/)).toBeNull();
    expect(characterChecks()).toEqual([]);

    await events.selectOptions(zoneSelect(), 'Máy chủ 2 - Bạch Hổ');
    expect(await screen.findByText('Nhân vật: hiepkhach')).toBeInTheDocument();
    expect(screen.getByText('Xu sẽ được nạp vào nhân vật này.')).toBeInTheDocument();
    expect(searches).toEqual(['?zoneId=2']);
    expect(zoneSelect()).not.toHaveAttribute('aria-invalid');

    await events.click(tile(/^500 Xu/));
    expect(submitButton()).toBeEnabled();
  });

  it('says it is checking until the game answers', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get(CHARACTER, async () => {
        await answered;
        return HttpResponse.json({ name: 'player01' });
      }),
    );
    const { events } = await openGame('fsonline');
    await events.selectOptions(zoneSelect(), '1');
    expect(await screen.findByText('Đang kiểm tra nhân vật của bạn trên máy chủ này...')).toBeInTheDocument();
    answer();
    expect(await screen.findByText('Nhân vật: player01')).toBeInTheDocument();
    expect(screen.queryByText('Đang kiểm tra nhân vật của bạn trên máy chủ này...')).toBeNull();
  });

  it("shows the game's message beside the server and keeps Nạp disabled where there is no character", async () => {
    rechargeDb.noCharacter = { fsonline: [2] };
    const { events } = await openGame('fsonline');
    await events.click(tile(/^500 Xu/));
    await events.selectOptions(zoneSelect(), 'Máy chủ 2 - Bạch Hổ');

    expect(await screen.findByText(NO_CHARACTER)).toBeInTheDocument();
    expect(zoneSelect()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(/^Nhân vật:/)).toBeNull();
    expect(submitButton()).toBeDisabled();
    await events.click(submitButton());
    expect(db.requests).not.toContain('POST /api/payment/coin-recharge/fsonline');

    // Another server with a character: the message goes and Nạp can be pressed.
    await events.selectOptions(zoneSelect(), 'Máy chủ 1 - Thiên Long');
    expect(await screen.findByText('Nhân vật: player01')).toBeInTheDocument();
    expect(screen.queryByText(NO_CHARACTER)).toBeNull();
    expect(submitButton()).toBeEnabled();
  });

  it('warns, and leaves Nạp enabled, when the game did not answer in time (503)', async () => {
    rechargeDb.gameAnswers = false;
    const { events } = await openGame('fsonline', buildUser({ credit: 100_000 }));
    await events.selectOptions(zoneSelect(), '1');
    expect(await screen.findByText(CHARACTER_UNCHECKED)).toBeInTheDocument();
    expect(zoneSelect()).not.toHaveAttribute('aria-invalid');
    await events.click(tile(/^500 Xu/));
    expect(submitButton()).toBeEnabled();

    // The server decides: here it lets the order go.
    await events.click(submitButton());
    expect(await screen.findByText('Nạp thành công 500 Xu vào máy chủ Máy chủ 1 - Thiên Long.')).toBeInTheDocument();
  });

  it('refuses a server the game does not have (422) as a missing character', async () => {
    server.use(http.get(CHARACTER, () => validationError({ zoneId: ['Máy chủ bạn chọn không tồn tại.'] })));
    const { events } = await openGame('fsonline');
    await events.click(tile(/^500 Xu/));
    await events.selectOptions(zoneSelect(), '1');
    expect(await screen.findByText('Máy chủ bạn chọn không tồn tại.')).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();
  });

  it("puts an order's refusal for the server (422 errors.zoneId) under the picker", async () => {
    const { events } = await openGame('fsonline');
    await events.selectOptions(zoneSelect(), '2');
    await screen.findByText('Nhân vật: player01');
    // The character went after the check: the order is refused.
    rechargeDb.noCharacter = { fsonline: [2] };
    await events.click(tile(/^500 Xu/));
    await events.click(submitButton());

    expect(await screen.findByText(NO_CHARACTER)).toBeInTheDocument();
    expect(zoneSelect()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(/^Nhân vật:/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(rechargeDb.orders).toHaveLength(0);
  });

  it('asks again for each server and game, and forgets the character once the order is done', async () => {
    const { events } = await openGame('fsonline');
    await events.selectOptions(zoneSelect(), '1');
    await screen.findByText('Nhân vật: player01');
    await events.selectOptions(zoneSelect(), '2');
    await waitFor(() => expect(characterChecks()).toHaveLength(2));
    await events.click(tile(/^200 Xu/));
    await events.click(submitButton());
    await screen.findByText(/^Nạp thành công/);
    // The server is cleared with the selection, and with it the character.
    expect(zoneSelect()).toHaveValue('');
    expect(screen.queryByText(/^Nhân vật:/)).toBeNull();

    await events.click(screen.getByRole('link', { name: 'Kiếm Thế 2' }));
    await screen.findByRole('option', { name: 'Máy chủ 1 - Long Môn' });
    await events.selectOptions(zoneSelect(), '1');
    await screen.findByText('Nhân vật: player01');
    expect(db.requests).toContain('GET /api/payment/coin-recharge/jxsj2/character');
  });
});
