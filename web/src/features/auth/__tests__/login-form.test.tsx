import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { TEST_PASSWORD } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

const usernameField = () => screen.getByLabelText(/Tên đăng nhập/);
const passwordField = () => screen.getByLabelText(/Mật khẩu/, { selector: 'input' });
const submitButton = () => screen.getByRole('button', { name: 'Đăng nhập' });

describe('sign-in form', () => {
  it('links to recovery and registration', async () => {
    renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Quên thông tin tài khoản?' })).toHaveAttribute('href', '/recovery');
    expect(screen.getByRole('link', { name: 'Đăng ký ngay' })).toHaveAttribute('href', '/register');
  });

  it('keeps submit disabled until the username has 4 characters and a password is given', async () => {
    const { events } = renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' });
    expect(submitButton()).toBeDisabled();

    await events.type(usernameField(), 'abc');
    await events.type(passwordField(), 'x');
    expect(submitButton()).toBeDisabled();
    expect(screen.getByText('Tên đăng nhập phải có tối thiểu 4 ký tự.')).toBeInTheDocument();

    await events.type(usernameField(), 'd');
    await waitFor(() => expect(submitButton()).toBeEnabled());

    await events.clear(passwordField());
    await waitFor(() => expect(submitButton()).toBeDisabled());
    expect(screen.getByText('Hãy nhập mật khẩu.')).toBeInTheDocument();
  });

  it('sends username, password and remember after fetching the CSRF cookie', async () => {
    let body: unknown;
    let xsrf: string | null = null;
    server.use(
      http.post('/api/auth/login', async ({ request }) => {
        db.requests.push('POST /api/auth/login');
        xsrf = request.headers.get('X-XSRF-TOKEN');
        body = await request.json();
        db.signedIn = true;
        return HttpResponse.json(db.user);
      }),
    );
    const { events, router } = renderApp('/login');

    await events.type(await screen.findByLabelText(/Tên đăng nhập/), 'player01');
    await events.type(passwordField(), TEST_PASSWORD);
    await events.click(screen.getByRole('checkbox', { name: 'Ghi nhớ đăng nhập' }));
    await events.click(submitButton());

    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(body).toEqual({ username: 'player01', password: TEST_PASSWORD, remember: true });
    expect(xsrf).toBe('test-xsrf-token');
    const csrfAt = db.requests.indexOf('GET /api/auth/csrf-cookie');
    expect(csrfAt).toBeGreaterThanOrEqual(0);
    expect(csrfAt).toBeLessThan(db.requests.indexOf('POST /api/auth/login'));
  });

  it('shows the server message, flags the username, and clears the flag on edit', async () => {
    const { events } = renderApp('/login');

    await events.type(await screen.findByLabelText(/Tên đăng nhập/), 'player01');
    await events.type(passwordField(), 'wrong-password');
    await events.click(submitButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Tên đăng nhập hoặc mật khẩu không chính xác.');
    await waitFor(() => expect(usernameField()).toHaveAttribute('aria-invalid', 'true'));
    expect(db.signedIn).toBe(false);

    await events.type(passwordField(), '!');
    await waitFor(() => expect(usernameField()).not.toHaveAttribute('aria-invalid'));
    expect(screen.getByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
  });

  it('shows the throttling message when there were too many attempts', async () => {
    const message = 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.';
    server.use(
      http.post('/api/auth/login', () =>
        HttpResponse.json({ message, errors: {} }, { status: 429, headers: { 'Retry-After': '60' } }),
      ),
    );
    const { events } = renderApp('/login');

    await events.type(await screen.findByLabelText(/Tên đăng nhập/), 'player01');
    await events.type(passwordField(), TEST_PASSWORD);
    await events.click(submitButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Đăng nhập không thành công');
    expect(alert).toHaveTextContent(message);
    expect(usernameField()).not.toHaveAttribute('aria-invalid');
  });

  it('shows the transport message when the server cannot be reached', async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.error()));
    const { events } = renderApp('/login');

    await events.type(await screen.findByLabelText(/Tên đăng nhập/), 'player01');
    await events.type(passwordField(), TEST_PASSWORD);
    await events.click(submitButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('Network Error');
    expect(usernameField()).not.toHaveAttribute('aria-invalid');
  });

  it('can show the password it hides', async () => {
    const { events } = renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' });
    expect(passwordField()).toHaveAttribute('type', 'password');
    expect(passwordField()).toHaveAttribute('maxlength', '128');
    await events.click(screen.getByRole('button', { name: 'Hiện mật khẩu' }));
    expect(passwordField()).toHaveAttribute('type', 'text');
  });
});
