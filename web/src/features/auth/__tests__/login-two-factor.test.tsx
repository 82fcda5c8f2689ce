import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { captchaStub as captcha } from '@/testing/captcha-stub';
import { buildUser, TEST_PASSWORD } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import {
  RECOVERY_CODES,
  SECOND_FACTOR_WAIT_MS,
  SIGN_IN_EXPIRED,
  TOTP_CODES,
  TWO_FACTOR_CODE_WRONG,
  twoFactorDb,
} from '@/testing/mocks/two-factor-handlers';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

vi.mock('@/hooks/use-captcha', async (importOriginal) =>
  (await import('@/testing/captcha-stub')).stubCaptcha(await importOriginal()),
);

const SECOND_STEP = '/api/auth/login/two-factor';

const codeField = () => screen.getByLabelText(/^Mã xác thực/, { selector: 'input' });
const confirmButton = () => screen.getByRole('button', { name: 'Xác nhận' });
const tooManyAttempts = (minutes: number) =>
  `Bạn đã nhập sai mã xác thực quá nhiều lần. Vui lòng thử lại sau ${minutes} phút.`;

/** The password step of an account with two-factor on, up to the code step. */
async function toCodeStep(url = '/login', { remember = false } = {}) {
  db.user = buildUser({ mfaEnabled: true });
  const rendered = renderApp(url);
  const { events } = rendered;
  await events.type(await screen.findByLabelText(/Tên đăng nhập/), 'player01');
  await events.type(screen.getByLabelText(/Mật khẩu/, { selector: 'input' }), TEST_PASSWORD);
  if (remember) await events.click(screen.getByRole('checkbox', { name: 'Ghi nhớ đăng nhập' }));
  await events.click(screen.getByRole('button', { name: 'Đăng nhập' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Xác thực hai lớp' })).toBeInTheDocument();
  // The step's form loads lazily.
  await screen.findByLabelText(/^Mã xác thực/, { selector: 'input' });
  return rendered;
}

async function submitCode(events: ReturnType<typeof renderApp>['events'], code: string) {
  await events.clear(codeField());
  await events.type(codeField(), code);
  await events.click(confirmButton());
}

async function expectUnderField(message: string) {
  const error = await screen.findByText(message);
  expect(error.closest('[role="group"]')).toContainElement(codeField());
  expect(codeField()).toHaveAttribute('aria-invalid', 'true');
}

beforeEach(() => captcha.reset());

describe('sign-in with two-factor', () => {
  it('asks for the code on the same page once the password is right, and is not signed in yet', async () => {
    const { router, fullNavigations } = await toCodeStep();

    expect(
      screen.getByText(
        'Nhập mã 6 chữ số từ ứng dụng xác thực trên điện thoại của bạn, hoặc một mã khôi phục bạn đã lưu.',
      ),
    ).toBeInTheDocument();
    expect(codeField()).toHaveFocus();
    expect(codeField()).toHaveAttribute('autocomplete', 'one-time-code');
    expect(codeField()).toHaveAttribute('name', 'code');
    expect(confirmButton()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Quay lại' })).toBeInTheDocument();
    expect(screen.queryByLabelText(/Mật khẩu/)).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
    expect(fullNavigations).toEqual([]);
    expect(db.signedIn).toBe(false);
    // Nobody to read: /me is asked only by the guard, before the form showed.
    expect(db.requests.filter((request) => request === 'GET /api/me')).toHaveLength(1);
  });

  it('puts a wrong code under the field, and takes the message away on edit', async () => {
    const { events } = await toCodeStep();
    await submitCode(events, '000000');

    await expectUnderField(TWO_FACTOR_CODE_WRONG);
    expect(db.signedIn).toBe(false);
    expect(screen.getByRole('heading', { level: 1, name: 'Xác thực hai lớp' })).toBeInTheDocument();

    await events.type(codeField(), '1');
    await waitFor(() => expect(screen.queryByText(TWO_FACTOR_CODE_WRONG)).toBeNull());
  });

  it('after too many wrong codes (429) says for how many minutes, and waits', async () => {
    const { events } = await toCodeStep();
    // The fake server lets 5 wrong codes through in 15 minutes, then throttles.
    for (const wrong of ['000001', '000002', '000003', '000004', '000005']) {
      await submitCode(events, wrong);
      await expectUnderField(TWO_FACTOR_CODE_WRONG);
    }
    await submitCode(events, TOTP_CODES[0]);

    // Retry-After just under 900 s: 15 minutes.
    await expectUnderField(tooManyAttempts(15));
    expect(confirmButton()).toBeDisabled();
    expect(codeField()).toHaveFocus();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(db.signedIn).toBe(false);
  });

  it.each([
    ['240', 4],
    ['61', 2],
  ])('rounds a Retry-After of %s seconds up to %i minutes', async (retryAfter, minutes) => {
    server.use(
      http.post(SECOND_STEP, () =>
        HttpResponse.json(
          { message: 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.', errors: {} },
          { status: 429, headers: { 'Retry-After': retryAfter } },
        ),
      ),
    );
    const { events } = await toCodeStep();
    await submitCode(events, TOTP_CODES[0]);
    await expectUnderField(tooManyAttempts(minutes));
  });

  it('signs in with the code and goes on as a sign-in without two-factor does', async () => {
    const { events, router, fullNavigations } = await toCodeStep('/login?next_uri=%2Fsecurity', { remember: true });
    await events.type(codeField(), `${TOTP_CODES[0]}{Enter}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Bảo mật và đăng nhập' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/security');
    expect(fullNavigations).toEqual([`${window.location.origin}/security`]);
    expect(db.signedIn).toBe(true);
    expect(twoFactorDb.bodies).toEqual([{ path: '/auth/login/two-factor', body: { code: TOTP_CODES[0] } }]);
    // The CSRF cookie is fetched before the code is sent, and /me read after it.
    const sent = db.requests.indexOf(`POST ${SECOND_STEP}`);
    expect(db.requests.lastIndexOf('GET /api/auth/csrf-cookie', sent)).toBeGreaterThan(
      db.requests.indexOf('POST /api/auth/login'),
    );
    expect(db.requests.indexOf('GET /api/me', sent)).toBeGreaterThan(sent);
  });

  it('signs in with a recovery code typed in lower case, to / without next_uri', async () => {
    const { events, router } = await toCodeStep();
    await submitCode(events, ` ${RECOVERY_CODES[3].toLowerCase()} `);

    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(db.signedIn).toBe(true);
  });

  it('goes back to the password step with the username and remember me as they were', async () => {
    const { events } = await toCodeStep('/login', { remember: true });
    await events.click(screen.getByRole('button', { name: 'Quay lại' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Tên đăng nhập/)).toHaveValue('player01');
    expect(screen.getByRole('checkbox', { name: 'Ghi nhớ đăng nhập' })).toBeChecked();
    const password = screen.getByLabelText(/Mật khẩu/, { selector: 'input' });
    expect(password).toHaveValue('');
    expect(password).toHaveFocus();

    // The password again leads to the code step again.
    await events.type(password, `${TEST_PASSWORD}{Enter}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Xác thực hai lớp' })).toBeInTheDocument();
    expect(await screen.findByLabelText(/^Mã xác thực/, { selector: 'input' })).toHaveFocus();
  });

  it('once the sign-in has expired, says so under the field and offers to sign in again', async () => {
    const { events } = await toCodeStep();
    twoFactorDb.pendingSignIn!.at -= SECOND_FACTOR_WAIT_MS + 1_000;
    await submitCode(events, TOTP_CODES[0]);

    await expectUnderField(SIGN_IN_EXPIRED);
    expect(screen.queryByRole('button', { name: 'Xác nhận' })).toBeNull();
    await events.click(screen.getByRole('button', { name: 'Đăng nhập lại' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Tên đăng nhập/)).toHaveValue('player01');
  });

  it("shows a failure the field cannot say above it, such as the server's being busy", async () => {
    const message = 'Hệ thống đang bận, xin thử lại sau giây lát.';
    server.use(http.post(SECOND_STEP, () => HttpResponse.json({ message, errors: {} }, { status: 503 })));
    const { events } = await toCodeStep();
    await submitCode(events, TOTP_CODES[0]);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Đăng nhập không thành công');
    expect(alert).toHaveTextContent(message);
    expect(codeField()).not.toHaveAttribute('aria-invalid');
    expect(confirmButton()).toBeEnabled();
  });
});
