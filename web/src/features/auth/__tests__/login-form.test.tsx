import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { captchaStub as captcha } from '@/testing/captcha-stub';
import { TEST_PASSWORD } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { captchaTokenFor, LOGIN_FAILED, TOO_MANY_REQUESTS } from '@/testing/mocks/handlers';
import { server } from '@/testing/mocks/server';
import { throttlePasswordAttempts } from '@/testing/mocks/throttle';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

vi.mock('@/hooks/use-captcha', async (importOriginal) =>
  (await import('@/testing/captcha-stub')).stubCaptcha(await importOriginal()),
);

const LOGIN = '/api/auth/login';

const usernameField = () => screen.getByLabelText(/Tên đăng nhập/);
const passwordField = () => screen.getByLabelText(/Mật khẩu/, { selector: 'input' });
const submitButton = () => screen.getByRole('button', { name: 'Đăng nhập' });

async function signIn(events: ReturnType<typeof renderApp>['events'], password = TEST_PASSWORD) {
  await events.type(await screen.findByLabelText(/Tên đăng nhập/), 'player01');
  await events.type(passwordField(), password);
  await events.click(submitButton());
}

beforeEach(() => captcha.reset());

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
    // Validation is asynchronous: the schema's module loads after the form has rendered.
    expect(await screen.findByText('Tên đăng nhập phải có tối thiểu 4 ký tự.')).toBeInTheDocument();

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
    // Without throttling no captcha is asked for.
    expect(body).toEqual({ username: 'player01', password: TEST_PASSWORD, remember: true });
    expect(captcha.actions).toEqual([]);
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

  it('sends a throttled attempt (429) once more with a loginFormSubmit captcha token, and signs in', async () => {
    const bodies = throttlePasswordAttempts(LOGIN, 'loginFormSubmit');
    const { events, router } = renderApp('/login');
    await signIn(events);

    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(db.signedIn).toBe(true);
    expect(bodies).toEqual([
      { username: 'player01', password: TEST_PASSWORD, remember: false },
      { username: 'player01', password: TEST_PASSWORD, remember: false, gReCaptchaToken: captchaTokenFor('loginFormSubmit') },
    ]);
    expect(captcha.actions).toEqual(['loginFormSubmit']);
  });

  it('after a captcha still flags the username when the password is wrong', async () => {
    const bodies = throttlePasswordAttempts(LOGIN, 'loginFormSubmit');
    const { events } = renderApp('/login');
    await signIn(events, 'wrong-password');

    expect(await screen.findByRole('alert')).toHaveTextContent(LOGIN_FAILED);
    await waitFor(() => expect(usernameField()).toHaveAttribute('aria-invalid', 'true'));
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toHaveProperty('gReCaptchaToken', captchaTokenFor('loginFormSubmit'));
    expect(db.signedIn).toBe(false);
  });

  it('shows the throttling message when the attempt with a captcha is throttled too, after two requests', async () => {
    // A token for another action, which the gateway refuses for sign-in.
    captcha.token = captchaTokenFor('registerFormSubmit');
    const bodies = throttlePasswordAttempts(LOGIN, 'loginFormSubmit');
    const { events } = renderApp('/login');
    await signIn(events);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Đăng nhập không thành công');
    expect(alert).toHaveTextContent(TOO_MANY_REQUESTS);
    expect(usernameField()).not.toHaveAttribute('aria-invalid');
    await waitFor(() => expect(submitButton()).toBeEnabled());
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).not.toHaveProperty('gReCaptchaToken');
    expect(bodies[1]).toHaveProperty('gReCaptchaToken', captchaTokenFor('registerFormSubmit'));
    expect(captcha.actions).toEqual(['loginFormSubmit']);
    expect(db.signedIn).toBe(false);
  });

  it('shows the throttling message after one request when the captcha has not loaded', async () => {
    captcha.loaded = false;
    const bodies = throttlePasswordAttempts(LOGIN, 'loginFormSubmit');
    const { events } = renderApp('/login');
    await signIn(events);

    expect(await screen.findByRole('alert')).toHaveTextContent(TOO_MANY_REQUESTS);
    expect(bodies).toHaveLength(1);
    expect(captcha.actions).toEqual([]);
  });

  it("shows the server's message when it is too busy (503), without asking for a captcha", async () => {
    const message = 'Hệ thống đang bận, xin thử lại sau giây lát.';
    let requests = 0;
    server.use(
      http.post(LOGIN, () => {
        requests += 1;
        return HttpResponse.json({ message, errors: {} }, { status: 503, headers: { 'Retry-After': '2' } });
      }),
    );
    const { events } = renderApp('/login');
    await signIn(events);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Đăng nhập không thành công');
    expect(alert).toHaveTextContent(message);
    expect(requests).toBe(1);
    expect(captcha.actions).toEqual([]);
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
