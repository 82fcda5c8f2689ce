import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';

import { paths } from '@/config/paths';
import { USER_QUERY_KEY } from '@/lib/auth';
import { buildUser, PASSWORD_RESET_TOKEN, TEST_PASSWORD } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { RESET_LINK_INVALID, validationError } from '@/testing/mocks/handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, renderComponent, screen, waitFor, within } from '@/testing/test-utils';

import { ResetPasswordScreen } from '../components/reset-password-screen';

const NEW_PASSWORD = 'Brand#New2025';
const RESET = '/api/auth/reset-password';
const link = paths.resetPassword;

const passwordField = () => screen.getByLabelText(/^Mật khẩu mới/, { selector: 'input' });
const confirmField = () => screen.getByLabelText(/^Xác nhận mật khẩu mới/, { selector: 'input' });
const submitButton = () => screen.getByRole('button', { name: 'Đổi mật khẩu' });
const meter = () => screen.getByRole('meter', { name: 'Độ mạnh mật khẩu' });

async function openForm(token = PASSWORD_RESET_TOKEN, options: Parameters<typeof renderApp>[1] = {}) {
  const rendered = renderApp(link(token), options);
  expect(await screen.findByLabelText(/^Mật khẩu mới/, { selector: 'input' })).toBeInTheDocument();
  return rendered;
}

async function expectInvalidLink() {
  expect(await screen.findByRole('heading', { level: 2, name: 'Đường dẫn không hợp lệ' })).toBeInTheDocument();
  expect(screen.getByText(RESET_LINK_INVALID)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Gửi lại yêu cầu' })).toHaveAttribute('href', '/recovery/forgot-password');
  expect(screen.queryByLabelText(/^Mật khẩu mới/, { selector: 'input' })).toBeNull();
  expect(screen.getByRole('heading', { level: 1, name: 'Đặt lại mật khẩu' })).toBeInTheDocument();
}

describe('reset password', () => {
  it('checks the link first, then shows the new-password form', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.get(`${RESET}/:token`, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return undefined;
      }),
    );
    renderApp(link(PASSWORD_RESET_TOKEN));

    expect(await screen.findByRole('heading', { level: 1, name: 'Đặt lại mật khẩu' })).toBeInTheDocument();
    expect(await screen.findByRole('status')).toHaveTextContent('Đang kiểm tra đường dẫn của bạn...');
    expect(screen.queryByLabelText(/^Mật khẩu mới/, { selector: 'input' })).toBeNull();
    release();

    expect(await screen.findByLabelText(/^Mật khẩu mới/, { selector: 'input' })).toHaveFocus();
    expect(screen.queryByText('Đang kiểm tra đường dẫn của bạn...')).toBeNull();
    expect(screen.getByText('Tạo mật khẩu mới cho tài khoản của bạn.')).toBeInTheDocument();
    expect(confirmField()).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Quay lại đăng nhập' })).toHaveAttribute('href', '/login');
    expect(db.recovery.checks).toEqual([PASSWORD_RESET_TOKEN]);
  });

  it('shows the invalid-link view for an unknown, used or expired link', async () => {
    const { events, router } = renderApp(link('no-such-token'));
    await expectInvalidLink();
    expect(db.recovery.checks).toEqual(['no-such-token']);

    await events.click(screen.getByRole('link', { name: 'Gửi lại yêu cầu' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Quên mật khẩu' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/recovery/forgot-password');
  });

  it('asks about a token that needs URL encoding as the player received it', async () => {
    renderApp(link('a token/with+odd chars'));
    await expectInvalidLink();
    expect(db.recovery.checks).toEqual(['a token/with+odd chars']);
  });

  it('offers to try again when the link cannot be checked', async () => {
    let fail = true;
    server.use(
      http.get(`${RESET}/:token`, () => {
        if (fail) return HttpResponse.json({ message: 'Internal Server Error' }, { status: 500 });
        return undefined;
      }),
    );
    const { events } = renderApp(link(PASSWORD_RESET_TOKEN));

    expect(await screen.findByText('Kết nối đến máy chủ bị gián đoạn, xin thử lại sau')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 2, name: 'Đường dẫn không hợp lệ' })).toBeNull();
    fail = false;
    await events.click(screen.getByRole('button', { name: 'Thử lại' }));
    expect(await screen.findByLabelText(/^Mật khẩu mới/, { selector: 'input' })).toBeInTheDocument();
  });

  it('asks for a strong password of 8 characters or more and a matching confirmation', async () => {
    const { events } = await openForm();
    expect(passwordField()).toHaveAttribute('maxlength', '128');

    await events.type(passwordField(), 'abc');
    await events.tab();
    expect(await screen.findByText('Mật khẩu phải có tối thiểu 8 ký tự')).toBeInTheDocument();
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');

    await events.clear(passwordField());
    expect(await screen.findByText('Hãy nhập mật khẩu mới')).toBeInTheDocument();

    // Medium is not enough here.
    await events.type(passwordField(), 'abcdefg1');
    expect(
      await screen.findByText(
        'Mật khẩu chưa đủ mạnh, hãy chọn mật khẩu mạnh hơn: cần có ít nhất 3 loại ký tự, trong đó có ký hiệu.',
      ),
    ).toBeInTheDocument();
    expect(meter()).toHaveAttribute('aria-valuetext', 'Trung bình');
    expect(
      screen.getByText(
        'Mật khẩu an toàn cần có ít nhất 1 chữ cái, 1 chữ số, 1 ký hiệu và có cả chữ thường lẫn chữ hoa.',
      ),
    ).toBeInTheDocument();

    await events.type(passwordField(), '!');
    expect(meter()).toHaveAttribute('aria-valuetext', 'Mạnh');
    await waitFor(() => expect(passwordField()).not.toHaveAttribute('aria-invalid'));
    expect(submitButton()).toBeDisabled();

    await events.click(confirmField());
    await events.tab();
    expect(await screen.findByText('Hãy nhập mật khẩu xác nhận')).toBeInTheDocument();
    await events.type(confirmField(), 'abcdefg1?');
    expect(await screen.findByText('Mật khẩu xác nhận không trùng khớp')).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();

    // Changing the password re-checks the confirmation.
    await events.clear(passwordField());
    await events.type(passwordField(), 'abcdefg1?');
    await waitFor(() => expect(screen.queryByText('Mật khẩu xác nhận không trùng khớp')).toBeNull());
    await waitFor(() => expect(submitButton()).toBeEnabled());
  });

  it('sets the new password after the CSRF cookie, shows the success view and lets the player sign in with it', async () => {
    let body: unknown;
    let xsrf: string | null = null;
    server.use(
      http.post(RESET, async ({ request }) => {
        body = await request.clone().json();
        xsrf = request.headers.get('X-XSRF-TOKEN');
        return undefined;
      }),
    );
    const { events, router } = await openForm();
    await events.type(passwordField(), NEW_PASSWORD);
    await events.type(confirmField(), NEW_PASSWORD);
    await waitFor(() => expect(submitButton()).toBeEnabled());
    await events.click(submitButton());

    expect(await screen.findByRole('heading', { level: 2, name: 'Đổi mật khẩu thành công!' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Mật khẩu mới của bạn đã được lưu và tài khoản đã được đăng xuất khỏi mọi thiết bị. Hãy đăng nhập lại bằng mật khẩu mới.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Mật khẩu mới/, { selector: 'input' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Quay lại đăng nhập' })).toBeNull();
    expect(body).toEqual({ password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD, token: PASSWORD_RESET_TOKEN });
    expect(xsrf).toBe('test-xsrf-token');
    expect(db.requests).toEqual([
      `GET ${RESET}/${PASSWORD_RESET_TOKEN}`,
      'GET /api/auth/csrf-cookie',
      `POST ${RESET}`,
    ]);
    expect(db.recovery.resetToken).toBeNull();

    await events.click(screen.getByRole('link', { name: 'Đăng nhập' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    await events.type(screen.getByLabelText(/Tên đăng nhập/), 'player01');
    await events.type(screen.getByLabelText(/Mật khẩu/, { selector: 'input' }), TEST_PASSWORD);
    await events.click(screen.getByRole('button', { name: 'Đăng nhập' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Tên đăng nhập hoặc mật khẩu không chính xác.');

    await events.clear(screen.getByLabelText(/Mật khẩu/, { selector: 'input' }));
    await events.type(screen.getByLabelText(/Mật khẩu/, { selector: 'input' }), NEW_PASSWORD);
    await events.click(screen.getByRole('button', { name: 'Đăng nhập' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
  });

  it('does not offer the form again for a link it has just used', async () => {
    const { events, router } = await openForm();
    await events.type(passwordField(), NEW_PASSWORD);
    await events.type(confirmField(), `${NEW_PASSWORD}{Enter}`);
    expect(await screen.findByRole('heading', { level: 2, name: 'Đổi mật khẩu thành công!' })).toBeInTheDocument();

    await events.click(screen.getByRole('link', { name: 'Đăng nhập' }));
    await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' });
    await router.navigate(-1);
    await expectInvalidLink();
    // Known to be spent: not asked again.
    expect(db.recovery.checks).toEqual([PASSWORD_RESET_TOKEN]);
  });

  it("puts the server's messages beside the fields", async () => {
    server.use(
      http.post(RESET, () =>
        validationError({
          password: ['Mật khẩu này đã bị lộ trong một vụ rò rỉ dữ liệu, hãy chọn mật khẩu khác.'],
          passwordConfirm: ['Mật khẩu xác nhận không trùng khớp'],
        }),
      ),
    );
    const { events } = await openForm();
    await events.type(passwordField(), NEW_PASSWORD);
    await events.type(confirmField(), `${NEW_PASSWORD}{Enter}`);

    expect(
      await screen.findByText('Mật khẩu này đã bị lộ trong một vụ rò rỉ dữ liệu, hãy chọn mật khẩu khác.'),
    ).toBeInTheDocument();
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordField()).toHaveFocus();
    expect(screen.getByText('Mật khẩu xác nhận không trùng khớp')).toBeInTheDocument();
    expect(confirmField()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('heading', { level: 2 })).toBeNull();
  });

  it('turns into the invalid-link view when the link was used or expired meanwhile', async () => {
    const { events } = await openForm();
    // Another tab used the link after this one checked it.
    db.recovery.resetToken = null;
    await events.type(passwordField(), NEW_PASSWORD);
    await events.type(confirmField(), `${NEW_PASSWORD}{Enter}`);

    await expectInvalidLink();
    expect(db.requests.filter((request) => request === `POST ${RESET}`)).toHaveLength(1);
    expect(db.recovery.checks).toEqual([PASSWORD_RESET_TOKEN]);
    expect(db.password).toBe(TEST_PASSWORD);
  });

  it('shows other failures in an alert and keeps the form', async () => {
    server.use(http.post(RESET, () => HttpResponse.error()));
    const { events } = await openForm();
    await events.type(passwordField(), NEW_PASSWORD);
    await events.type(confirmField(), `${NEW_PASSWORD}{Enter}`);

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Đổi mật khẩu không thành công')).toBeInTheDocument();
    expect(alert).toHaveTextContent('Network Error');
    expect(passwordField()).toHaveValue(NEW_PASSWORD);
    expect(submitButton()).toBeEnabled();
  });

  it("marks a signed-in player's user data out of date once the password is reset", async () => {
    const { events, queryClient } = await openForm(PASSWORD_RESET_TOKEN, { user: buildUser() });
    queryClient.setQueryData(USER_QUERY_KEY, buildUser());
    await events.type(passwordField(), NEW_PASSWORD);
    await events.type(confirmField(), `${NEW_PASSWORD}{Enter}`);

    expect(await screen.findByRole('heading', { level: 2, name: 'Đổi mật khẩu thành công!' })).toBeInTheDocument();
    expect(db.signedIn).toBe(false);
    await waitFor(() => expect(queryClient.getQueryState(USER_QUERY_KEY)?.isInvalidated).toBe(true));
  });

  it('without a token goes to /login', async () => {
    const { router } = renderComponent(
      <Routes>
        <Route path="/recovery/forgot-password/" element={<ResetPasswordScreen />} />
        <Route path="/login" element={<h1>login</h1>} />
      </Routes>,
      { url: '/recovery/forgot-password/' },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(db.recovery.checks).toEqual([]);
  });
});
