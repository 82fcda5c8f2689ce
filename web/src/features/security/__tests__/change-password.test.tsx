import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { captchaStub as captcha } from '@/testing/captcha-stub';
import { buildUser, TEST_PASSWORD } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { captchaTokenFor, TOO_MANY_REQUESTS, validationError } from '@/testing/mocks/handlers';
import { CURRENT_PASSWORD_WRONG, securityDb } from '@/testing/mocks/security-handlers';
import { server } from '@/testing/mocks/server';
import { throttlePasswordAttempts } from '@/testing/mocks/throttle';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

vi.mock('@/hooks/use-captcha', async (importOriginal) =>
  (await import('@/testing/captcha-stub')).stubCaptcha(await importOriginal()),
);

const CHANGE = '/api/me/change-password';
const NEW_PASSWORD = 'newpass123';

const section = () => screen.getByRole('region', { name: 'Đổi mật khẩu' });
const currentField = () => within(section()).getByLabelText(/^Mật khẩu cũ/, { selector: 'input' });
const passwordField = () => within(section()).getByLabelText(/^Mật khẩu mới/, { selector: 'input' });
const confirmField = () => within(section()).getByLabelText(/^Xác nhận mật khẩu mới/, { selector: 'input' });
const submitButton = () => within(section()).getByRole('button', { name: 'Đổi mật khẩu' });

async function openScreen(options: Parameters<typeof renderApp>[1] = { user: true }) {
  const rendered = renderApp('/security', options);
  expect(await screen.findByRole('region', { name: 'Đổi mật khẩu' })).toBeInTheDocument();
  return rendered;
}

async function fillIn(events: ReturnType<typeof renderApp>['events'], current = TEST_PASSWORD) {
  await events.type(currentField(), current);
  await events.type(passwordField(), NEW_PASSWORD);
  await events.type(confirmField(), NEW_PASSWORD);
}

beforeEach(() => captcha.reset());

describe('change password', () => {
  it('asks for the current password, a medium password of 8 characters or more and a matching confirmation', async () => {
    const { events } = await openScreen();
    expect(submitButton()).toBeDisabled();
    for (const field of [currentField(), passwordField(), confirmField()]) {
      expect(field).toHaveAttribute('maxlength', '128');
      expect(field).toHaveAttribute('type', 'password');
    }

    await events.click(currentField());
    await events.tab();
    expect(await within(section()).findByText('Hãy nhập vào mật khẩu cũ.')).toBeInTheDocument();
    expect(currentField()).toHaveAttribute('aria-invalid', 'true');

    await events.type(passwordField(), 'abc1');
    await events.tab();
    expect(await within(section()).findByText('Mật khẩu phải có tối thiểu 8 ký tự.')).toBeInTheDocument();
    await events.clear(passwordField());
    expect(await within(section()).findByText('Hãy nhập vào mật khẩu mới của bạn.')).toBeInTheDocument();

    // Letters alone are too weak; a digit makes it medium, which is enough here.
    await events.type(passwordField(), 'abcdefgh');
    expect(
      await within(section()).findByText(
        'Mật khẩu quá yếu, hãy chọn mật khẩu mạnh hơn: cần có ít nhất 2 loại ký tự, trong đó có chữ số.',
      ),
    ).toBeInTheDocument();
    await events.type(passwordField(), '1');
    await waitFor(() => expect(passwordField()).not.toHaveAttribute('aria-invalid'));
    expect(within(section()).getByRole('meter', { name: 'Độ mạnh mật khẩu' })).toHaveAttribute(
      'aria-valuetext',
      'Trung bình',
    );

    await events.click(confirmField());
    await events.tab();
    expect(await within(section()).findByText('Hãy nhập vào mật khẩu xác nhận.')).toBeInTheDocument();
    await events.type(confirmField(), 'abcdefgh2');
    expect(await within(section()).findByText('Mật khẩu xác nhận không trùng khớp.')).toBeInTheDocument();

    await events.type(currentField(), TEST_PASSWORD);
    expect(submitButton()).toBeDisabled();

    // Changing the new password re-checks the confirmation.
    await events.clear(passwordField());
    await events.type(passwordField(), 'abcdefgh2');
    await waitFor(() => expect(within(section()).queryByText('Mật khẩu xác nhận không trùng khớp.')).toBeNull());
    expect(submitButton()).toBeEnabled();
  });

  it('sends the three fields after the CSRF cookie, then says so, empties the form and lists only this device', async () => {
    let body: unknown;
    let release: () => void = () => undefined;
    server.use(
      http.post(CHANGE, async ({ request }) => {
        body = await request.clone().json();
        await new Promise<void>((resolve) => (release = resolve));
        return undefined;
      }),
    );
    const { events } = await openScreen({ user: buildUser({ passwordChangedAt: null }) });
    const sessions = screen.getByRole('region', { name: 'Thiết bị đang đăng nhập' });
    expect(await within(sessions).findAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByText('Đổi mật khẩu lần cuối')).toBeNull();

    await fillIn(events);
    const button = submitButton();
    await events.click(button);

    // Processing: the button is busy and cannot be pressed again.
    await waitFor(() => expect(body).toBeDefined());
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('data-loading');
    release();

    const banner = await within(section()).findByRole('status');
    expect(within(banner).getByText('Thay đổi mật khẩu thành công!')).toBeInTheDocument();
    expect(banner).toHaveTextContent('Tài khoản của bạn đã được đăng xuất khỏi tất cả các thiết bị khác.');
    expect(body).toEqual({ currentPassword: TEST_PASSWORD, password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD });
    expect(captcha.actions).toEqual([]);
    expect(db.password).toBe(NEW_PASSWORD);
    const csrfAt = db.requests.lastIndexOf('GET /api/auth/csrf-cookie');
    expect(csrfAt).toBeGreaterThanOrEqual(0);
    expect(csrfAt).toBeLessThan(db.requests.indexOf(`POST ${CHANGE}`));

    expect(currentField()).toHaveValue('');
    expect(passwordField()).toHaveValue('');
    expect(confirmField()).toHaveValue('');
    expect(submitButton()).toBeDisabled();
    expect(within(section()).queryByText('Hãy nhập vào mật khẩu cũ.')).toBeNull();

    // The user and the sessions were asked for again.
    expect(await screen.findByText('Đổi mật khẩu lần cuối')).toBeInTheDocument();
    await waitFor(() => expect(within(sessions).getAllByRole('listitem')).toHaveLength(1));
    expect(within(sessions).getByRole('button', { name: 'Đăng xuất khỏi tất cả thiết bị khác' })).toBeDisabled();
    expect(securityDb.sessions).toHaveLength(1);
  });

  it('says it succeeded only once the user has been read again', async () => {
    const { events } = await openScreen({ user: buildUser({ passwordChangedAt: null }) });
    let release!: () => void;
    const meAnswered = new Promise<void>((resolve) => (release = resolve));
    let meAsked = false;
    server.use(
      http.get('/api/me', async () => {
        meAsked = true;
        await meAnswered;
        return HttpResponse.json(db.user);
      }),
    );

    await fillIn(events);
    const button = submitButton();
    await events.click(button);

    // Changed on the server, /me asked for again but not answered yet: no success text.
    await waitFor(() => expect(meAsked).toBe(true));
    expect(db.password).toBe(NEW_PASSWORD);
    expect(within(section()).queryByText('Thay đổi mật khẩu thành công!')).toBeNull();
    expect(button).toHaveAttribute('data-loading');

    release();
    expect(await within(section()).findByText('Thay đổi mật khẩu thành công!')).toBeInTheDocument();
    // The success shows beside the refreshed user, not the old one.
    expect(screen.getByText('Đổi mật khẩu lần cuối')).toBeInTheDocument();
  });

  it('moves on to the next field with Enter and submits from the last', async () => {
    const { events } = await openScreen();
    await events.click(currentField());
    await events.keyboard(`${TEST_PASSWORD}{Enter}`);
    expect(passwordField()).toHaveFocus();
    await events.keyboard(`${NEW_PASSWORD}{Enter}`);
    expect(confirmField()).toHaveFocus();
    await events.keyboard(`${NEW_PASSWORD}{Enter}`);

    expect(await within(section()).findByText('Thay đổi mật khẩu thành công!')).toBeInTheDocument();
    expect(db.password).toBe(NEW_PASSWORD);
  });

  it('puts the server message for a wrong current password beside that field', async () => {
    const { events } = await openScreen();
    await fillIn(events, 'Wrong#pass1');
    await events.click(submitButton());

    expect(await within(section()).findByText(CURRENT_PASSWORD_WRONG)).toBeInTheDocument();
    expect(currentField()).toHaveAttribute('aria-invalid', 'true');
    expect(currentField()).toHaveFocus();
    expect(within(section()).queryByRole('status')).toBeNull();
    expect(within(section()).queryByRole('alert')).toBeNull();
    expect(db.password).toBe(TEST_PASSWORD);
    expect(securityDb.sessions).toHaveLength(3);
    // The values stay for another try.
    expect(passwordField()).toHaveValue(NEW_PASSWORD);

    // Editing the field clears the server's message.
    await events.type(currentField(), 'x');
    await waitFor(() => expect(within(section()).queryByText(CURRENT_PASSWORD_WRONG)).toBeNull());
  });

  it('puts the server messages for the new password and its confirmation beside them', async () => {
    server.use(
      http.post(CHANGE, () =>
        validationError({ password: ['Mật khẩu này đã bị lộ, hãy chọn mật khẩu khác.'], passwordConfirm: ['Khác.'] }),
      ),
    );
    const { events } = await openScreen();
    await fillIn(events);
    await events.click(submitButton());

    expect(await within(section()).findByText('Mật khẩu này đã bị lộ, hãy chọn mật khẩu khác.')).toBeInTheDocument();
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordField()).toHaveFocus();
    expect(within(section()).getByText('Khác.')).toBeInTheDocument();
    expect(confirmField()).toHaveAttribute('aria-invalid', 'true');
    expect(within(section()).queryByRole('alert')).toBeNull();
  });

  it('shows the server message of any other failure above the form', async () => {
    server.use(http.post(CHANGE, () => HttpResponse.json({ message: 'Máy chủ đang bảo trì.' }, { status: 503 })));
    const { events } = await openScreen();
    await fillIn(events);
    await events.click(submitButton());

    const alert = await within(section()).findByRole('alert');
    expect(alert).toHaveTextContent('Đổi mật khẩu không thành công');
    expect(alert).toHaveTextContent('Máy chủ đang bảo trì.');
    expect(within(section()).queryByRole('status')).toBeNull();
    expect(submitButton()).toBeEnabled();
  });

  it('sends a throttled attempt (429) once more with a changePasswordFormSubmit captcha token', async () => {
    const bodies = throttlePasswordAttempts(CHANGE, 'changePasswordFormSubmit');
    const { events } = await openScreen();
    await fillIn(events);
    await events.click(submitButton());

    expect(await within(section()).findByRole('status')).toHaveTextContent('Thay đổi mật khẩu thành công!');
    expect(db.password).toBe(NEW_PASSWORD);
    const fields = { currentPassword: TEST_PASSWORD, password: NEW_PASSWORD, passwordConfirm: NEW_PASSWORD };
    expect(bodies).toEqual([fields, { ...fields, gReCaptchaToken: captchaTokenFor('changePasswordFormSubmit') }]);
    expect(captcha.actions).toEqual(['changePasswordFormSubmit']);
    expect(within(section()).queryByRole('alert')).toBeNull();
  });

  it('after a captcha still puts the message for a wrong current password beside that field', async () => {
    const bodies = throttlePasswordAttempts(CHANGE, 'changePasswordFormSubmit');
    const { events } = await openScreen();
    await fillIn(events, 'Wrong#pass1');
    await events.click(submitButton());

    expect(await within(section()).findByText(CURRENT_PASSWORD_WRONG)).toBeInTheDocument();
    expect(currentField()).toHaveAttribute('aria-invalid', 'true');
    expect(within(section()).queryByRole('alert')).toBeNull();
    expect(bodies).toHaveLength(2);
    expect(db.password).toBe(TEST_PASSWORD);
  });

  it('shows the throttling message above the form when the attempt with a captcha is throttled too', async () => {
    // A token for another action, which the gateway refuses for a password change.
    captcha.token = captchaTokenFor('changeEmailFormSubmit');
    const bodies = throttlePasswordAttempts(CHANGE, 'changePasswordFormSubmit');
    const { events } = await openScreen();
    await fillIn(events);
    await events.click(submitButton());

    const alert = await within(section()).findByRole('alert');
    expect(alert).toHaveTextContent('Đổi mật khẩu không thành công');
    expect(alert).toHaveTextContent(TOO_MANY_REQUESTS);
    await waitFor(() => expect(submitButton()).toBeEnabled());
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).not.toHaveProperty('gReCaptchaToken');
    expect(bodies[1]).toHaveProperty('gReCaptchaToken', captchaTokenFor('changeEmailFormSubmit'));
    expect(captcha.actions).toEqual(['changePasswordFormSubmit']);
    expect(within(section()).queryByRole('status')).toBeNull();
    expect(db.password).toBe(TEST_PASSWORD);
    // The values stay for a later try.
    expect(passwordField()).toHaveValue(NEW_PASSWORD);
  });

  it('shows the throttling message after one request when the captcha has not loaded', async () => {
    captcha.loaded = false;
    const bodies = throttlePasswordAttempts(CHANGE, 'changePasswordFormSubmit');
    const { events } = await openScreen();
    await fillIn(events);
    await events.click(submitButton());

    expect(await within(section()).findByRole('alert')).toHaveTextContent(TOO_MANY_REQUESTS);
    expect(bodies).toHaveLength(1);
    expect(captcha.actions).toEqual([]);
  });
});
