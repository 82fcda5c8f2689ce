import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { db } from '@/testing/mocks/db';
import { CAPTCHA_REFUSED, captchaTokenFor, RECOVERY_NEUTRAL } from '@/testing/mocks/handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor } from '@/testing/test-utils';

import { captchaStub } from '@/testing/captcha-stub';

vi.mock('@/hooks/use-captcha', async (importOriginal) =>
  (await import('@/testing/captcha-stub')).stubCaptcha(await importOriginal()),
);

const RECOVER = '/api/auth/recover-username';

const emailField = () => screen.getByRole('textbox', { name: /Địa chỉ email/ });
const submitButton = () => screen.getByRole('button', { name: 'Gửi yêu cầu' });

async function open() {
  const rendered = renderApp('/recovery/forgot-username');
  expect(await screen.findByRole('heading', { level: 1, name: 'Quên tên đăng nhập' })).toBeInTheDocument();
  return rendered;
}

async function expectNeutralAnswer() {
  expect(await screen.findByRole('heading', { level: 2, name: 'Hãy kiểm tra hộp thư của bạn' })).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent(RECOVERY_NEUTRAL);
  expect(screen.queryByRole('textbox', { name: /Địa chỉ email/ })).toBeNull();
  expect(screen.getByRole('link', { name: 'Quay lại đăng nhập' })).toHaveAttribute('href', '/login');
}

beforeEach(() => captchaStub.reset());

describe('forgot username', () => {
  it('is reached from /recovery', async () => {
    const { events, router } = renderApp('/recovery');
    await events.click(await screen.findByRole('link', { name: 'Quên tên đăng nhập' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Quên tên đăng nhập' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/recovery/forgot-username');
    expect(
      screen.getByText(
        'Nhập địa chỉ email của tài khoản, chúng tôi sẽ gửi tên đăng nhập của bạn đến địa chỉ email này.',
      ),
    ).toBeInTheDocument();
  });

  it('enables submit only for a valid address, whatever its top-level domain', async () => {
    const { events } = await open();
    expect(submitButton()).toBeDisabled();
    expect(emailField()).toHaveAttribute('maxlength', '128');

    await events.click(emailField());
    await events.tab();
    expect(await screen.findByText('Hãy nhập địa chỉ email của bạn')).toBeInTheDocument();

    for (const invalid of ['player', 'player@', 'player@example', 'player@@example.com', 'pl ayer@example.com']) {
      await events.clear(emailField());
      await events.type(emailField(), invalid);
      expect(await screen.findByText('Địa chỉ email không hợp lệ')).toBeInTheDocument();
      expect(submitButton()).toBeDisabled();
    }

    for (const valid of ['player@example.com', 'player@example.museum', 'player@example.xn--p1ai', 'a.b+c@mail.co.vn']) {
      await events.clear(emailField());
      await events.type(emailField(), valid);
      await waitFor(() => expect(submitButton()).toBeEnabled());
      expect(screen.queryByText('Địa chỉ email không hợp lệ')).toBeNull();
    }
  });

  it('sends the address with a forgotUsernameFormSubmit captcha token after the CSRF cookie, then shows the neutral answer', async () => {
    let body: unknown;
    let xsrf: string | null = null;
    server.use(
      http.post(RECOVER, async ({ request }) => {
        body = await request.clone().json();
        xsrf = request.headers.get('X-XSRF-TOKEN');
        return undefined;
      }),
    );
    const { events } = await open();
    await events.type(emailField(), 'player01@example.com');
    await events.click(submitButton());

    await expectNeutralAnswer();
    expect(captchaStub.actions).toEqual(['forgotUsernameFormSubmit']);
    expect(body).toEqual({ email: 'player01@example.com', gReCaptchaToken: captchaTokenFor('forgotUsernameFormSubmit') });
    expect(xsrf).toBe('test-xsrf-token');
    expect(db.requests).toEqual(['GET /api/auth/csrf-cookie', `POST ${RECOVER}`]);
  });

  it('gives the same neutral answer for an address that has no account', async () => {
    const { events } = await open();
    await events.type(emailField(), 'nobody@example.org{Enter}');
    await expectNeutralAnswer();
    expect(db.recovery.usernameEmails).toEqual([
      { email: 'nobody@example.org', gReCaptchaToken: captchaTokenFor('forgotUsernameFormSubmit') },
    ]);
  });

  it("shows the server's message about the address beside the field until it is edited", async () => {
    server.use(
      http.post(RECOVER, () =>
        HttpResponse.json(
          { message: 'Địa chỉ email không hợp lệ', errors: { email: ['Địa chỉ email không hợp lệ'] } },
          { status: 422 },
        ),
      ),
    );
    const { events } = await open();
    await events.type(emailField(), 'player@localhost.localdomain{Enter}');

    expect(await screen.findByText('Địa chỉ email không hợp lệ')).toBeInTheDocument();
    expect(emailField()).toHaveAttribute('aria-invalid', 'true');
    expect(emailField()).toHaveFocus();
    expect(screen.queryByRole('alert')).toBeNull();

    await events.type(emailField(), 'x');
    await waitFor(() => expect(screen.queryByText('Địa chỉ email không hợp lệ')).toBeNull());
  });

  it('shows a refused captcha in an alert', async () => {
    captchaStub.token = captchaTokenFor('forgotPasswordFormSubmit');
    const { events } = await open();
    await events.type(emailField(), 'player01@example.com{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Gửi yêu cầu không thành công');
    expect(alert).toHaveTextContent(CAPTCHA_REFUSED);
    expect(db.recovery.usernameEmails).toEqual([]);
  });

  it('shows a connection failure in an alert and keeps what was typed', async () => {
    server.use(http.post(RECOVER, () => HttpResponse.error()));
    const { events } = await open();
    await events.type(emailField(), 'player01@example.com{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('Network Error');
    expect(emailField()).toHaveValue('player01@example.com');
  });

  it('does nothing on submit while the captcha has not loaded', async () => {
    captchaStub.loaded = false;
    const { events } = await open();
    await events.type(emailField(), 'player01@example.com');
    await waitFor(() => expect(submitButton()).toBeEnabled());
    await events.click(submitButton());

    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(db.requests).toEqual([]);
    expect(emailField()).toHaveValue('player01@example.com');
  });
});
