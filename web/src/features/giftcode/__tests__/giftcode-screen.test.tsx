import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { USER_QUERY_KEY } from '@/lib/auth';
import { TRANSACTION_HISTORY_QUERY_KEY } from '@/lib/query-keys';
import { captchaStub as captcha } from '@/testing/captcha-stub';
import { buildUser } from '@/testing/data';
import { captchaTokenFor, validationError } from '@/testing/mocks/common';
import { db } from '@/testing/mocks/db';
import {
  GIFT_CHARACTER_UNCHECKED,
  GIFT_ITEMS_FAILED,
  GIFT_ITEMS_SENT,
  GIFT_NO_CHARACTER,
  GIFTCODE_ALREADY_REDEEMED,
  GIFTCODE_CAPTCHA_REFUSED,
  GIFTCODE_EXPIRED,
  GIFTCODE_INVALID,
  GIFTCODE_NOT_STARTED,
  GIFTCODE_PROCESSING,
  GIFTCODE_REQUIRED,
  GIFTCODE_USED,
  giftcodeDb,
  giftZoneRequired,
  STARTER_CAMPAIGN,
  WELCOME_CAMPAIGN,
} from '@/testing/mocks/giftcode-handlers';
import { rechargeDb } from '@/testing/mocks/recharge-handlers';
import { server } from '@/testing/mocks/server';
import { act, renderApp, screen, waitFor, within } from '@/testing/test-utils';
import type { User } from '@/types/api-schema';

import { DELIVERY_CHECK_INTERVAL_MS, DELIVERY_CHECKS } from '../api/redeem-giftcode';

vi.mock('@/hooks/use-captcha', async (importOriginal) =>
  (await import('@/testing/captcha-stub')).stubCaptcha(await importOriginal()),
);

const REDEEM = '/api/giftcode/redeem';
const REDEEM_REQUEST = `POST ${REDEEM}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WELCOME_SUCCESS = `Nhận quà thành công! Bạn nhận được 1,000 KP từ chương trình ${WELCOME_CAMPAIGN}.`;
const tooManyAttempts = (minutes: number) =>
  `Bạn đã nhập sai mã quà tặng quá nhiều lần. Vui lòng thử lại sau ${minutes} phút.`;

const main = () => within(screen.getByRole('main'));
const codeInput = () => screen.getByRole('textbox', { name: 'Mã quà tặng' });
const submitButton = () => main().getByRole('button', { name: 'Nhận quà' });
const redeemRequests = () => db.requests.filter((request) => request === REDEEM_REQUEST);

/** Opens /giftcode signed in and waits for the form. */
async function openGiftcode(user: User = buildUser({ credit: 0 })) {
  const rendered = renderApp('/giftcode', { user });
  await screen.findByRole('textbox', { name: 'Mã quà tặng' });
  return rendered;
}

/** Types `code` (replacing what the field holds) and presses 'Nhận quà'. */
async function submitCode(events: ReturnType<typeof renderApp>['events'], code: string) {
  await events.clear(codeInput());
  if (code) await events.type(codeInput(), code);
  await events.click(submitButton());
}

/** `text` is said under the code field, which is marked invalid. */
async function expectUnderField(text: string) {
  const message = await screen.findByText(text);
  expect(message.closest('[role="group"]')).toContainElement(codeInput());
  expect(codeInput()).toHaveAttribute('aria-invalid', 'true');
  expect(screen.queryByRole('alert')).toBeNull();
}

/** Records the Idempotency-Key and body of every redemption, leaving the answer to the fake server. */
function captureRedemptions() {
  const posts: { key: string | null; body: unknown }[] = [];
  server.use(
    http.post(REDEEM, async ({ request }) => {
      posts.push({ key: request.headers.get('Idempotency-Key'), body: await request.clone().json() });
      return undefined;
    }),
  );
  return posts;
}

beforeEach(() => {
  captcha.reset();
});

describe('giftcode: the page', () => {
  it('has its heading, description, and a code field made for codes', async () => {
    await openGiftcode();
    expect(screen.getByRole('heading', { level: 1, name: 'Nhập giftcode' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Nhập mã quà tặng để nhận KP hoặc vật phẩm trong game. Mỗi mã chỉ dùng được theo điều kiện của chương trình.',
      ),
    ).toBeInTheDocument();
    const input = codeInput();
    expect(input).toHaveAttribute('placeholder', 'VD: KID-XXXX-XXXX-XXXX');
    expect(input).toHaveAttribute('autocomplete', 'off');
    expect(input).toHaveAttribute('autocapitalize', 'characters');
    expect(input).toHaveAttribute('spellcheck', 'false');
    expect(input).toHaveValue('');
    expect(submitButton()).toBeEnabled();
  });

  it("is the side navigation's 'Nhập giftcode', marked current", async () => {
    await openGiftcode();
    const nav = screen.getByRole('navigation', { name: 'Quản lý tài khoản' });
    const link = within(nav).getByRole('link', { name: 'Nhập giftcode' });
    expect(link).toHaveAttribute('href', '/giftcode');
    expect(link).toHaveAttribute('aria-current', 'page');
  });
});

describe('giftcode: checks before sending', () => {
  it.each([
    ['nothing', ''],
    ['only spaces', '   '],
  ])('with %s, says the code is required and sends nothing', async (_, code) => {
    const { events } = await openGiftcode();
    await submitCode(events, code);
    await expectUnderField(GIFTCODE_REQUIRED);
    expect(codeInput()).toHaveFocus();
    expect(redeemRequests()).toEqual([]);
    expect(captcha.actions).toEqual([]);
  });

  it('says a code longer than 64 characters (once trimmed) is wrong, without asking the server', async () => {
    const { events } = await openGiftcode();
    await submitCode(events, `  ${'A'.repeat(65)}  `);
    await expectUnderField(GIFTCODE_INVALID);
    expect(redeemRequests()).toEqual([]);

    // 64 characters and surrounding spaces: sent, and it is the server that knows no such code.
    await submitCode(events, ` ${'A'.repeat(64)} `);
    await waitFor(() => expect(redeemRequests()).toHaveLength(1));
    await expectUnderField(GIFTCODE_INVALID);
    expect(giftcodeDb.attempts[0]!.body.code).toBe('A'.repeat(64));
  });

  it('does nothing when the captcha has not loaded', async () => {
    captcha.loaded = false;
    const { events } = await openGiftcode();
    await submitCode(events, 'KID-WELCOME');
    await waitFor(() => expect(submitButton()).not.toHaveAttribute('data-loading'));
    expect(redeemRequests()).toEqual([]);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('giftcode: redeeming', () => {
  it('sends the trimmed code as typed, the captcha token and an Idempotency-Key, after the CSRF cookie', async () => {
    const posts = captureRedemptions();
    const { events } = await openGiftcode();
    await submitCode(events, '  kid-Welcome ');

    await screen.findByText(WELCOME_SUCCESS);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ code: 'kid-Welcome', gReCaptchaToken: captchaTokenFor('giftcodeFormSubmit') });
    expect(posts[0]!.key).toMatch(UUID);
    expect(captcha.actions).toEqual(['giftcodeFormSubmit']);
    const csrfAt = db.requests.lastIndexOf('GET /api/auth/csrf-cookie');
    expect(csrfAt).toBeGreaterThanOrEqual(0);
    expect(csrfAt).toBeLessThan(db.requests.indexOf(REDEEM_REQUEST));
  });

  it('says what was received, clears the field, and refreshes the balance and the history', async () => {
    const { events, queryClient } = await openGiftcode(buildUser({ credit: 2_500 }));
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    expect(screen.getByTestId('header-balance')).toHaveTextContent('2,500 KP');
    const meLoads = db.requests.filter((request) => request === 'GET /api/me').length;

    await submitCode(events, ' kid-welcome ');

    const title = await screen.findByText(WELCOME_SUCCESS);
    expect(title.closest('[role="status"]')).toBeInTheDocument();
    expect(codeInput()).toHaveValue('');
    expect(codeInput()).not.toHaveAttribute('aria-invalid');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: USER_QUERY_KEY });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: TRANSACTION_HISTORY_QUERY_KEY });
    await waitFor(() => expect(screen.getByTestId('header-balance')).toHaveTextContent('3,500 KP'));
    expect(db.requests.filter((request) => request === 'GET /api/me').length).toBeGreaterThan(meLoads);
    expect(db.transactions[0]).toMatchObject({ type: 'giftcode', realValue: 1000, payload: { campaign: WELCOME_CAMPAIGN } });

    // The message can be closed.
    await events.click(within(title.closest('[role="status"]') as HTMLElement).getByRole('button', { name: 'Đóng' }));
    expect(screen.queryByText(WELCOME_SUCCESS)).toBeNull();
  });

  it("refuses a campaign's second code: the player has had its gift", async () => {
    const { events } = await openGiftcode();
    await submitCode(events, 'KID-WELCOME');
    await screen.findByText(WELCOME_SUCCESS);

    await submitCode(events, 'KID-WELCOME');
    await expectUnderField(GIFTCODE_ALREADY_REDEEMED);
    // The new attempt took the earlier success message away, and the code stays to be corrected.
    expect(screen.queryByText(WELCOME_SUCCESS)).toBeNull();
    expect(codeInput()).toHaveValue('KID-WELCOME');
    expect(codeInput()).toHaveFocus();
    await waitFor(() => expect(screen.getByTestId('header-balance')).toHaveTextContent('1,000 KP'));
  });

  it('sends a new Idempotency-Key with each submit (mutations are not retried automatically)', async () => {
    const posts = captureRedemptions();
    const { events } = await openGiftcode();
    await submitCode(events, 'KID-NOPE-1234');
    await expectUnderField(GIFTCODE_INVALID);
    await submitCode(events, 'KID-WELCOME');
    await screen.findByText(WELCOME_SUCCESS);

    expect(posts.map((post) => post.key)).toEqual([expect.stringMatching(UUID), expect.stringMatching(UUID)]);
    expect(posts[1]!.key).not.toBe(posts[0]!.key);
    // A 422 is not sent again by itself.
    expect(redeemRequests()).toHaveLength(2);
  });

  it("shows the server's message when the grant is still being processed (202), and refreshes the same", async () => {
    const { events, queryClient } = await openGiftcode();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await submitCode(events, 'kid-slow');

    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent(GIFTCODE_PROCESSING);
    expect(screen.queryByText(/^Nhận quà thành công/)).toBeNull();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: USER_QUERY_KEY });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: TRANSACTION_HISTORY_QUERY_KEY });
  });
});

describe('giftcode: refusals', () => {
  it.each([
    ['KID-NOPE-1234', GIFTCODE_INVALID],
    ['KID-EARLY', GIFTCODE_NOT_STARTED],
    ['KID-EXPIRED', GIFTCODE_EXPIRED],
    ['KID-USED', GIFTCODE_USED],
  ])('%s: says "%s" under the field', async (code, message) => {
    const { events } = await openGiftcode();
    await submitCode(events, code);
    await expectUnderField(message);
    expect(screen.queryByText(/^Nhận quà thành công/)).toBeNull();

    // Typing again takes the server's message away.
    await events.type(codeInput(), 'X');
    await waitFor(() => expect(screen.queryByText(message)).toBeNull());
    expect(codeInput()).not.toHaveAttribute('aria-invalid');
  });

  it("shows a server's required-code message under the field too", async () => {
    server.use(http.post(REDEEM, () => validationError({ code: [GIFTCODE_REQUIRED] })));
    const { events } = await openGiftcode();
    await submitCode(events, 'KID-WELCOME');
    await expectUnderField(GIFTCODE_REQUIRED);
  });

  it('after too many wrong codes (429) says for how long, and disables the button', async () => {
    const { events } = await openGiftcode();
    await submitCode(events, 'KID-LOCK');

    // Retry-After 600 s: 10 minutes.
    await expectUnderField(tooManyAttempts(10));
    expect(submitButton()).toBeDisabled();
    expect(codeInput()).toHaveFocus();

    // Another code typed meanwhile: still locked, still said.
    await events.clear(codeInput());
    await events.type(codeInput(), 'KID-WELCOME{Enter}');
    expect(screen.getByText(tooManyAttempts(10))).toBeInTheDocument();
    expect(redeemRequests()).toHaveLength(1);
  });

  it.each([
    ['601', 11],
    ['61', 2],
    ['60', 1],
    ['30', 1],
    // None sent: a minute, as the least the message can say.
    [null, 1],
  ])('rounds a Retry-After of %s seconds up to %i minute(s)', async (retryAfter, minutes) => {
    server.use(
      http.post(REDEEM, () =>
        HttpResponse.json(
          { message: 'Too many attempts.' },
          { status: 429, headers: retryAfter === null ? {} : { 'Retry-After': retryAfter } },
        ),
      ),
    );
    const { events } = await openGiftcode();
    await submitCode(events, 'KID-ABC');
    expect(await screen.findByText(tooManyAttempts(minutes))).toBeInTheDocument();
  });

  it('enables the button again once Retry-After has passed', async () => {
    server.use(
      http.post(REDEEM, () => HttpResponse.json({ message: 'Too many attempts.' }, { status: 429, headers: { 'Retry-After': '1' } }), {
        once: true,
      }),
    );
    const { events } = await openGiftcode();
    await submitCode(events, 'KID-ABC');
    await screen.findByText(tooManyAttempts(1));
    expect(submitButton()).toBeDisabled();

    await waitFor(() => expect(submitButton()).toBeEnabled(), { timeout: 3_000 });
    expect(screen.queryByText(tooManyAttempts(1))).toBeNull();
    await submitCode(events, 'KID-WELCOME');
    expect(await screen.findByText(WELCOME_SUCCESS)).toBeInTheDocument();
  });

  it('shows a refused captcha above the button, not under the field', async () => {
    captcha.token = captchaTokenFor('loginFormSubmit');
    const { events } = await openGiftcode();
    await submitCode(events, 'KID-WELCOME');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Nhận quà không thành công');
    expect(alert).toHaveTextContent(GIFTCODE_CAPTCHA_REFUSED);
    expect(codeInput()).not.toHaveAttribute('aria-invalid');
    expect(codeInput()).toHaveValue('KID-WELCOME');
  });

  it("shows another failure's server message, or the transport's", async () => {
    server.use(
      http.post(REDEEM, () => HttpResponse.json({ message: 'Hệ thống đang bảo trì.' }, { status: 503 }), { once: true }),
    );
    const { events } = await openGiftcode();
    await submitCode(events, 'KID-WELCOME');
    expect(await screen.findByRole('alert')).toHaveTextContent('Hệ thống đang bảo trì.');
    expect(submitButton()).toBeEnabled();

    server.use(http.post(REDEEM, () => HttpResponse.error(), { once: true }));
    await events.click(submitButton());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Network Error'));
    expect(codeInput()).toHaveValue('KID-WELCOME');
  });
});

describe('giftcode: in-game items', () => {
  const STARTER = 'KID-TANTHU';
  const GAME = 'Phong Thần Online';
  const ZONE_1 = 'Máy chủ 1 - Thiên Long';
  const ZONE_2 = 'Máy chủ 2 - Bạch Hổ';
  const ITEMS = '1 × Rương Tân Thủ, 5 × Bùa May Mắn';
  const PLAYER = 'tan_thu';
  const DELIVERED = `Nhận quà thành công! Đã nhận ${ITEMS} cho nhân vật ${PLAYER} tại ${ZONE_1} (${GAME}).`;

  const zoneSelect = () => screen.getByRole('combobox', { name: 'Máy chủ nhận quà' });
  const openAsPlayer = () => openGiftcode(buildUser({ username: PLAYER, credit: 0 }));

  /** `text` is said under the zone picker, which is marked invalid; the code field is not. */
  async function expectUnderZone(text: string) {
    const message = await screen.findByText(text);
    expect(message.closest('[role="group"]')).toContainElement(zoneSelect());
    expect(zoneSelect()).toHaveAttribute('aria-invalid', 'true');
    expect(codeInput()).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
  }

  /** Submits the starter code and waits for the server's request for a zone. */
  async function askedForZone(events: ReturnType<typeof renderApp>['events']) {
    await submitCode(events, STARTER);
    await screen.findByRole('combobox', { name: 'Máy chủ nhận quà' });
    await expectUnderZone(giftZoneRequired(GAME));
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for a zone of the game the code is for, naming the game and listing its zones', async () => {
    const { events } = await openAsPlayer();
    await askedForZone(events);

    expect(zoneSelect()).toHaveAccessibleDescription(expect.stringContaining(GAME));
    await waitFor(() =>
      expect(within(zoneSelect()).getAllByRole('option').map((option) => option.textContent)).toEqual([
        '-- Chọn máy chủ --',
        ZONE_1,
        ZONE_2,
      ]),
    );
    expect(db.requests).toContain('GET /api/payment/coin-recharge/fsonline');
    // The code stays, and the player is on the picker.
    expect(codeInput()).toHaveValue(STARTER);
    expect(zoneSelect()).toHaveFocus();
  });

  it('sends the chosen zone with the code, under a new Idempotency-Key, and shows what went where', async () => {
    giftcodeDb.game = 'silent';
    const posts = captureRedemptions();
    const { events } = await openAsPlayer();
    await askedForZone(events);

    await events.selectOptions(zoneSelect(), ZONE_1);
    await events.click(submitButton());

    const status = await screen.findByText(GIFT_ITEMS_SENT);
    const alert = status.closest<HTMLElement>('[role="status"]')!;
    expect(within(alert).getByText(`Chương trình: ${STARTER_CAMPAIGN}`)).toBeInTheDocument();
    expect(within(alert).getByText(`Vật phẩm: ${ITEMS}`)).toBeInTheDocument();
    expect(within(alert).getByText(`Game: ${GAME}`)).toBeInTheDocument();
    expect(within(alert).getByText(`Máy chủ: ${ZONE_1}`)).toBeInTheDocument();
    expect(within(alert).getByText(`Nhân vật: ${PLAYER}`)).toBeInTheDocument();

    const token = captchaTokenFor('giftcodeFormSubmit');
    expect(posts.map((post) => post.body)).toEqual([
      { code: STARTER, gReCaptchaToken: token },
      { code: STARTER, gReCaptchaToken: token, zoneId: 1 },
    ]);
    expect(posts[1]!.key).toMatch(UUID);
    expect(posts[1]!.key).not.toBe(posts[0]!.key);
    // Until the items arrive, the code and the zone stay.
    expect(codeInput()).toHaveValue(STARTER);
    expect(zoneSelect()).toHaveValue('1');
  });

  it('asks again when nothing was chosen, without sending anything', async () => {
    const { events } = await openAsPlayer();
    await askedForZone(events);

    await events.click(submitButton());
    await expectUnderZone('Hãy chọn máy chủ để nhận quà.');
    expect(zoneSelect()).toHaveFocus();
    expect(redeemRequests()).toHaveLength(1);
  });

  it('says under the picker that the player has no character on that zone, until another is chosen', async () => {
    rechargeDb.noCharacter = { fsonline: [2] };
    const { events } = await openAsPlayer();
    await askedForZone(events);

    await events.selectOptions(zoneSelect(), ZONE_2);
    await events.click(submitButton());
    await expectUnderZone(GIFT_NO_CHARACTER);
    expect(screen.queryByText(giftZoneRequired(GAME))).toBeNull();
    expect(codeInput()).toHaveValue(STARTER);

    await events.selectOptions(zoneSelect(), ZONE_1);
    await waitFor(() => expect(screen.queryByText(GIFT_NO_CHARACTER)).toBeNull());
    expect(zoneSelect()).not.toHaveAttribute('aria-invalid');
  });

  it('shows above the button that the game did not answer the character check (503)', async () => {
    const { events } = await openAsPlayer();
    await askedForZone(events);
    rechargeDb.gameAnswers = false;

    await events.selectOptions(zoneSelect(), ZONE_1);
    await events.click(submitButton());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Nhận quà không thành công');
    expect(alert).toHaveTextContent(GIFT_CHARACTER_UNCHECKED);
    expect(zoneSelect()).toHaveValue('1');
    expect(codeInput()).toHaveValue(STARTER);
  });

  it('follows the items sent (202) with the same request until the game delivered them, then clears the form', async () => {
    const posts = captureRedemptions();
    const { events } = await openAsPlayer();
    await askedForZone(events);
    await events.selectOptions(zoneSelect(), ZONE_1);
    await events.click(submitButton());
    await screen.findByText(GIFT_ITEMS_SENT);

    const title = await screen.findByText(DELIVERED);
    const banner = title.closest<HTMLElement>('[role="status"]')!;
    expect(banner).toHaveTextContent(`Chương trình: ${STARTER_CAMPAIGN}`);
    expect(screen.queryByText(GIFT_ITEMS_SENT)).toBeNull();
    // The replay is the redemption again: the same key, the same body.
    expect(posts).toHaveLength(3);
    expect(posts[2]).toEqual(posts[1]);
    // The gift arrived: nothing of it stays in the form.
    expect(codeInput()).toHaveValue('');
    expect(screen.queryByRole('combobox', { name: 'Máy chủ nhận quà' })).toBeNull();

    // Delivered is final: no more asking.
    await act(() => new Promise((resolve) => window.setTimeout(resolve, DELIVERY_CHECK_INTERVAL_MS + 500)));
    expect(redeemRequests()).toHaveLength(3);

    // The campaign is once per player.
    await submitCode(events, STARTER);
    await expectUnderField(GIFTCODE_ALREADY_REDEEMED);
    expect(screen.queryByRole('combobox', { name: 'Máy chủ nhận quà' })).toBeNull();
    expect(screen.queryByText(DELIVERED)).toBeNull();
  });

  it("shows the server's warning when the game could not deliver the items, and keeps the code to try again", async () => {
    giftcodeDb.game = 'fails';
    const { events } = await openAsPlayer();
    await askedForZone(events);
    await events.selectOptions(zoneSelect(), ZONE_1);
    await events.click(submitButton());

    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent('Chưa nhận được quà');
    expect(warning).toHaveTextContent(GIFT_ITEMS_FAILED);
    expect(warning).toHaveTextContent(`Máy chủ: ${ZONE_1}`);
    expect(screen.queryByText(/^Nhận quà thành công/)).toBeNull();
    expect(codeInput()).toHaveValue(STARTER);
    expect(zoneSelect()).toHaveValue('1');

    // The code can be used again: the same code and zone, as a new redemption.
    giftcodeDb.game = 'delivers';
    await events.click(submitButton());
    expect(await screen.findByText(DELIVERED)).toBeInTheDocument();
    expect(new Set(giftcodeDb.attempts.slice(1).map((attempt) => attempt.idempotencyKey)).size).toBe(2);
  });

  it(`stops asking after ${DELIVERY_CHECKS} answers without news, and says to look in the game later`, async () => {
    giftcodeDb.game = 'silent';
    const { events } = await openAsPlayer();
    await askedForZone(events);
    await events.selectOptions(zoneSelect(), ZONE_1);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    await events.click(submitButton());
    await screen.findByText(GIFT_ITEMS_SENT);

    for (let check = 1; check <= DELIVERY_CHECKS; check += 1) {
      await act(() => vi.advanceTimersByTimeAsync(DELIVERY_CHECK_INTERVAL_MS));
      await waitFor(() => expect(redeemRequests()).toHaveLength(2 + check));
    }
    expect(
      await screen.findByText('Game chưa xác nhận đã trao quà. Bạn hãy vào game kiểm tra nhân vật sau ít phút.'),
    ).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(DELIVERY_CHECK_INTERVAL_MS * 2));
    expect(redeemRequests()).toHaveLength(2 + DELIVERY_CHECKS);
    expect(screen.getByText(GIFT_ITEMS_SENT)).toBeInTheDocument();
  });

  it('drops the picker once the code is changed: a KP code then goes without a zone, as before', async () => {
    const posts = captureRedemptions();
    const { events } = await openAsPlayer();
    await askedForZone(events);
    await events.selectOptions(zoneSelect(), ZONE_1);

    await events.type(codeInput(), 'X');
    expect(screen.queryByRole('combobox', { name: 'Máy chủ nhận quà' })).toBeNull();
    expect(screen.queryByText(giftZoneRequired(GAME))).toBeNull();

    await submitCode(events, 'KID-WELCOME');
    expect(await screen.findByText(WELCOME_SUCCESS)).toBeInTheDocument();
    expect(posts.at(-1)!.body).toEqual({ code: 'KID-WELCOME', gReCaptchaToken: captchaTokenFor('giftcodeFormSubmit') });
    expect(codeInput()).toHaveValue('');
    expect(screen.queryByRole('combobox', { name: 'Máy chủ nhận quà' })).toBeNull();
  });
});
