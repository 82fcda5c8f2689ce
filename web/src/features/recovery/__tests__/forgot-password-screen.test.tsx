import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { db } from '@/testing/mocks/db';
import { CAPTCHA_REFUSED, captchaTokenFor, RECOVERY_NEUTRAL, validationError } from '@/testing/mocks/handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

import { captchaStub } from '@/testing/captcha-stub';

vi.mock('@/hooks/use-captcha', async (importOriginal) =>
  (await import('@/testing/captcha-stub')).stubCaptcha(await importOriginal()),
);

const SEND = '/api/auth/reset-password/send-email';

const usernameField = () => screen.getByRole('textbox', { name: /Tên đăng nhập/ });
const submitButton = () => screen.getByRole('button', { name: 'Gửi yêu cầu' });

async function open() {
  const rendered = renderApp('/recovery/forgot-password');
  expect(await screen.findByRole('heading', { level: 1, name: 'Quên mật khẩu' })).toBeInTheDocument();
  return rendered;
}

async function expectNeutralAnswer() {
  expect(await screen.findByRole('heading', { level: 2, name: 'Hãy kiểm tra hộp thư của bạn' })).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent(RECOVERY_NEUTRAL);
  expect(screen.queryByRole('textbox', { name: /Tên đăng nhập/ })).toBeNull();
  expect(screen.getByRole('link', { name: 'Quay lại đăng nhập' })).toHaveAttribute('href', '/login');
}

beforeEach(() => captchaStub.reset());

describe('forgot password', () => {
  it('is reached from /recovery', async () => {
    const { events, router } = renderApp('/recovery');
    await events.click(await screen.findByRole('link', { name: 'Quên mật khẩu' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Quên mật khẩu' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/recovery/forgot-password');
    expect(
      screen.getByText(
        'Nhập tên đăng nhập của bạn, chúng tôi sẽ gửi đường dẫn đặt lại mật khẩu đến địa chỉ email của tài khoản.',
      ),
    ).toBeInTheDocument();
  });

  it('enables submit only once the username has 4 characters', async () => {
    const { events } = await open();
    expect(submitButton()).toBeDisabled();

    await events.type(usernameField(), 'abc');
    expect(submitButton()).toBeDisabled();
    await events.tab();
    expect(await screen.findByText('Tên đăng nhập phải có tối thiểu 4 ký tự.')).toBeInTheDocument();
    expect(usernameField()).toHaveAttribute('aria-invalid', 'true');

    await events.type(usernameField(), 'd');
    await waitFor(() => expect(submitButton()).toBeEnabled());
    expect(screen.queryByText('Tên đăng nhập phải có tối thiểu 4 ký tự.')).toBeNull();

    // Spaces around the name do not count.
    await events.clear(usernameField());
    expect(await screen.findByText('Hãy nhập tên đăng nhập.')).toBeInTheDocument();
    await events.type(usernameField(), '  abc  ');
    await waitFor(() => expect(submitButton()).toBeDisabled());
  });

  it('sends the username with a forgotPasswordFormSubmit captcha token after the CSRF cookie, then shows the neutral answer', async () => {
    let body: unknown;
    let xsrf: string | null = null;
    server.use(
      http.post(SEND, async ({ request }) => {
        body = await request.clone().json();
        xsrf = request.headers.get('X-XSRF-TOKEN');
        return undefined;
      }),
    );
    const { events } = await open();
    await events.type(usernameField(), ' player01 ');
    await events.click(submitButton());

    await expectNeutralAnswer();
    expect(captchaStub.actions).toEqual(['forgotPasswordFormSubmit']);
    expect(body).toEqual({ username: 'player01', gReCaptchaToken: captchaTokenFor('forgotPasswordFormSubmit') });
    expect(xsrf).toBe('test-xsrf-token');
    expect(db.requests).toEqual(['GET /api/auth/csrf-cookie', `POST ${SEND}`]);
  });

  it('gives the same neutral answer for a name that has no account', async () => {
    const { events } = await open();
    await events.type(usernameField(), 'nobody_here{Enter}');
    await expectNeutralAnswer();
    expect(db.recovery.resetEmails).toEqual([
      { username: 'nobody_here', gReCaptchaToken: captchaTokenFor('forgotPasswordFormSubmit') },
    ]);
  });

  it("shows the server's message about the username beside the field until it is edited", async () => {
    server.use(http.post(SEND, () => validationError({ username: ['Tên đăng nhập không hợp lệ.'] })));
    const { events } = await open();
    await events.type(usernameField(), 'player01{Enter}');

    expect(await screen.findByText('Tên đăng nhập không hợp lệ.')).toBeInTheDocument();
    expect(usernameField()).toHaveAttribute('aria-invalid', 'true');
    expect(usernameField()).toHaveFocus();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('heading', { level: 2 })).toBeNull();

    await events.type(usernameField(), '2');
    await waitFor(() => expect(screen.queryByText('Tên đăng nhập không hợp lệ.')).toBeNull());
    expect(usernameField()).not.toHaveAttribute('aria-invalid');
  });

  it('shows a refused captcha in an alert', async () => {
    // A token asked for another action is refused, as the real verifier does.
    captchaStub.token = captchaTokenFor('registerFormSubmit');
    const { events } = await open();
    await events.type(usernameField(), 'player01{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Gửi yêu cầu không thành công');
    expect(alert).toHaveTextContent(CAPTCHA_REFUSED);
    expect(usernameField()).not.toHaveAttribute('aria-invalid');
    expect(db.recovery.resetEmails).toEqual([]);
  });

  it('shows any other failure in an alert and keeps what was typed', async () => {
    server.use(
      http.post(SEND, () => HttpResponse.json({ message: 'Dịch vụ tạm thời gián đoạn, xin thử lại sau.' }, { status: 503 })),
    );
    const { events } = await open();
    await events.type(usernameField(), 'player01{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('Dịch vụ tạm thời gián đoạn, xin thử lại sau.');
    expect(usernameField()).toHaveValue('player01');
    expect(submitButton()).toBeEnabled();
  });

  it('does nothing on submit while the captcha has not loaded', async () => {
    captchaStub.loaded = false;
    const { events } = await open();
    await events.type(usernameField(), 'player01');
    await waitFor(() => expect(submitButton()).toBeEnabled());
    await events.click(submitButton());

    // Give a request the chance to go out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(db.requests).toEqual([]);
    expect(captchaStub.actions).toEqual([]);
    expect(usernameField()).toHaveValue('player01');
  });
});
