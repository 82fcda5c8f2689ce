import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { captchaStub as captcha } from '@/testing/captcha-stub';
import { buildUser, TEST_PASSWORD } from '@/testing/data';
import { captchaTokenFor } from '@/testing/mocks/common';
import { db } from '@/testing/mocks/db';
import { TOO_MANY_REQUESTS } from '@/testing/mocks/handlers';
import {
  PASSWORD_NOW_REQUIRED,
  PASSWORD_NOW_WRONG,
  SECURITY_CAPTCHA_REFUSED,
  SECURITY_CODE,
  SECURITY_CODE_SENT,
  SECURITY_CODE_WRONG,
  SECURITY_TOO_MANY_REQUESTS,
} from '@/testing/mocks/security-handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

vi.mock('@/hooks/use-captcha', async (importOriginal) =>
  (await import('@/testing/captcha-stub')).stubCaptcha(await importOriginal()),
);

const CHANGE = '/api/me/change-email';
const SEND_CODE = '/api/me/security-code/';
const CURRENT = 'an.nguyen@example.com';
const NEW_EMAIL = 'an.moi@example.vn';

const verified = () => buildUser({ email: CURRENT, verifiedAt: '2024-05-01T08:00:00Z' });
const unverified = () => buildUser({ email: CURRENT, verifiedAt: null });

const section = () => screen.getByRole('region', { name: 'Email bảo vệ' });
const dialog = () => screen.getByRole('dialog', { name: 'Thay đổi email bảo vệ' });
const emailField = () => within(dialog()).getByLabelText(/^Địa chỉ email mới/, { selector: 'input' });
const codeField = () => within(dialog()).queryByLabelText(/^Mã bảo mật/, { selector: 'input' });
const passwordField = () => within(dialog()).queryByLabelText(/^Mật khẩu hiện tại/, { selector: 'input' });
const saveButton = () => within(dialog()).getByRole('button', { name: 'Lưu' });

/** An unverified account's change: the new address and the current password. */
async function fillUnverified(events: Awaited<ReturnType<typeof openDialog>>['events'], password = TEST_PASSWORD) {
  await events.clear(emailField());
  await events.type(emailField(), NEW_EMAIL);
  await events.type(passwordField()!, password);
}

async function openDialog(user = verified()) {
  const rendered = renderApp('/security', { user });
  const email = await screen.findByRole('region', { name: 'Email bảo vệ' });
  await rendered.events.click(within(email).getByRole('button', { name: 'Thay đổi' }));
  expect(await screen.findByRole('dialog', { name: 'Thay đổi email bảo vệ' })).toBeInTheDocument();
  return rendered;
}

/** Captures the JSON bodies a path is sent, leaving the answer to the fake server. */
function captureBodies(method: 'post', path: string) {
  const bodies: unknown[] = [];
  server.use(
    http[method](path, async ({ request }) => {
      bodies.push(await request.clone().json());
      return undefined;
    }),
  );
  return bodies;
}

beforeEach(() => {
  captcha.reset();
});

describe('protective email', () => {
  it('shows the current address and whether it is verified', async () => {
    renderApp('/security', { user: unverified() });
    const row = await within(await screen.findByRole('region', { name: 'Email bảo vệ' })).findByRole('definition');
    expect(within(row).getByText(CURRENT)).toBeInTheDocument();
    expect(within(row).getByText('Chưa xác minh')).toBeInTheDocument();
    expect(within(section()).getByRole('term')).toHaveTextContent('Địa chỉ email');
  });

  it('opens on the current address with save disabled until it changes', async () => {
    const { events } = await openDialog();
    expect(emailField()).toHaveValue(CURRENT);
    expect(emailField()).toHaveAttribute('maxlength', '128');
    expect(saveButton()).toBeDisabled();
    expect(codeField()).toBeNull();

    // The same address in other case or with spaces is no change.
    await events.clear(emailField());
    await events.type(emailField(), `  ${CURRENT.toUpperCase()} `);
    expect(saveButton()).toBeDisabled();
    expect(codeField()).toBeNull();

    await events.click(within(dialog()).getByRole('button', { name: 'Hủy' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks for a valid address of at most 128 characters', async () => {
    const { events } = await openDialog(unverified());
    await events.clear(emailField());
    await events.tab();
    expect(await within(dialog()).findByText('Hãy nhập địa chỉ email của bạn')).toBeInTheDocument();
    expect(emailField()).toHaveAttribute('aria-invalid', 'true');
    await events.type(emailField(), 'an.moi@');
    expect(await within(dialog()).findByText('Địa chỉ email bạn nhập không hợp lệ')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    await events.type(emailField(), 'example.games');
    await waitFor(() => expect(emailField()).not.toHaveAttribute('aria-invalid'));
    // The address is fine; the unverified account's password is still to come.
    expect(saveButton()).toBeDisabled();
    await events.type(passwordField()!, TEST_PASSWORD);
    expect(saveButton()).toBeEnabled();
  });

  it('asks an unverified account for its current password instead of a code, and says the new address is not verified yet', async () => {
    const bodies = captureBodies('post', CHANGE);
    const { events } = await openDialog(unverified());
    expect(passwordField()).toBeNull();
    await events.clear(emailField());
    await events.type(emailField(), NEW_EMAIL);
    expect(codeField()).toBeNull();
    expect(passwordField()).toHaveAttribute('autocomplete', 'current-password');
    expect(saveButton()).toBeDisabled();
    await events.click(passwordField()!);
    await events.tab();
    expect(await within(dialog()).findByText(PASSWORD_NOW_REQUIRED)).toBeInTheDocument();
    await events.type(passwordField()!, TEST_PASSWORD);
    await waitFor(() => expect(saveButton()).toBeEnabled());

    await events.click(saveButton());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies).toEqual([
      {
        email: NEW_EMAIL,
        securityCode: '',
        currentPassword: TEST_PASSWORD,
        gReCaptchaToken: captchaTokenFor('changeEmailFormSubmit'),
      },
    ]);
    expect(captcha.actions).toEqual(['changeEmailFormSubmit']);
    const banner = within(section()).getByRole('status');
    expect(within(banner).getByText('Thay đổi địa chỉ email thành công!')).toBeInTheDocument();
    expect(banner).toHaveTextContent(`Địa chỉ mới ${NEW_EMAIL} chưa được xác minh.`);
    const row = within(section()).getByRole('definition');
    expect(within(row).getByText(NEW_EMAIL)).toBeInTheDocument();
    expect(within(row).getByText('Chưa xác minh')).toBeInTheDocument();
    expect(db.user).toMatchObject({ email: NEW_EMAIL, verifiedAt: null });
    const csrfAt = db.requests.lastIndexOf('GET /api/auth/csrf-cookie');
    expect(csrfAt).toBeGreaterThanOrEqual(0);
    expect(csrfAt).toBeLessThan(db.requests.indexOf(`POST ${CHANGE}`));
  });

  it('puts the server message for a wrong current password beside it and keeps the address', async () => {
    const { events } = await openDialog(unverified());
    await fillUnverified(events, 'Sai-mat-khau-1!');
    await events.click(saveButton());

    expect(await within(dialog()).findByText(PASSWORD_NOW_WRONG)).toBeInTheDocument();
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordField()).toHaveFocus();
    expect(within(dialog()).queryByRole('alert')).toBeNull();
    expect(db.user.email).toBe(CURRENT);

    await events.clear(passwordField()!);
    await events.type(passwordField()!, TEST_PASSWORD);
    await events.click(saveButton());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(db.user.email).toBe(NEW_EMAIL);
  });

  it('asks a verified address for the code mailed to it, only once the address changes', async () => {
    const codeBodies = captureBodies('post', SEND_CODE);
    const bodies = captureBodies('post', CHANGE);
    const { events } = await openDialog();

    await events.clear(emailField());
    await events.type(emailField(), NEW_EMAIL);
    expect(codeField()).toBeInTheDocument();
    expect(passwordField()).toBeNull();
    expect(codeField()).toHaveAttribute('maxlength', '6');
    expect(
      within(dialog()).getByText(
        `Để xác nhận thay đổi, hãy nhập mã bảo mật được gửi đến địa chỉ hiện tại ${CURRENT}.`,
      ),
    ).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();

    await events.click(within(dialog()).getByRole('button', { name: 'Gửi mã' }));
    expect(await within(dialog()).findByRole('status')).toHaveTextContent(SECURITY_CODE_SENT);
    expect(within(dialog()).getByRole('button', { name: 'Gửi lại' })).toBeEnabled();
    expect(within(dialog()).queryByRole('button', { name: 'Gửi mã' })).toBeNull();
    expect(codeBodies).toEqual([{ action: 'confirm.change_email' }]);

    await events.type(codeField()!, SECURITY_CODE);
    await waitFor(() => expect(saveButton()).toBeEnabled());
    await events.click(saveButton());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies).toEqual([
      {
        email: NEW_EMAIL,
        securityCode: SECURITY_CODE,
        currentPassword: '',
        gReCaptchaToken: captchaTokenFor('changeEmailFormSubmit'),
      },
    ]);
    expect(within(section()).getByRole('status')).toHaveTextContent('Thay đổi địa chỉ email thành công!');
    expect(within(section()).getByRole('definition')).toHaveTextContent(NEW_EMAIL);
    expect(within(section()).getByRole('definition')).toHaveTextContent('Chưa xác minh');
  });

  it('hides the code step again when the address goes back to the current one', async () => {
    const { events } = await openDialog();
    await events.clear(emailField());
    await events.type(emailField(), NEW_EMAIL);
    expect(codeField()).toBeInTheDocument();
    await events.clear(emailField());
    await events.type(emailField(), CURRENT);
    expect(codeField()).toBeNull();
    expect(saveButton()).toBeDisabled();
  });

  it('asks for a code of exactly 6 characters', async () => {
    const { events } = await openDialog();
    await events.clear(emailField());
    await events.type(emailField(), NEW_EMAIL);
    await events.click(codeField()!);
    await events.tab();
    expect(await within(dialog()).findByText('Mã bảo mật không được bỏ trống')).toBeInTheDocument();
    await events.type(codeField()!, '123');
    expect(await within(dialog()).findByText('Mã bảo mật phải có 6 ký tự')).toBeInTheDocument();
    expect(codeField()).toHaveAttribute('aria-invalid', 'true');
    expect(saveButton()).toBeDisabled();
    await events.type(codeField()!, '456');
    await waitFor(() => expect(codeField()).not.toHaveAttribute('aria-invalid'));
    expect(saveButton()).toBeEnabled();
  });

  it('shows the server message when a code is asked for again within a minute', async () => {
    expect(SECURITY_TOO_MANY_REQUESTS).toBe(TOO_MANY_REQUESTS);
    const { events } = await openDialog();
    await events.clear(emailField());
    await events.type(emailField(), NEW_EMAIL);
    await events.click(within(dialog()).getByRole('button', { name: 'Gửi mã' }));
    await events.click(await within(dialog()).findByRole('button', { name: 'Gửi lại' }));

    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(TOO_MANY_REQUESTS);
    expect(within(dialog()).queryByRole('status')).toBeNull();
    expect(within(dialog()).getByRole('button', { name: 'Gửi lại' })).toBeEnabled();
  });

  it('puts the server message for a wrong code beside the code', async () => {
    const { events } = await openDialog();
    await events.clear(emailField());
    await events.type(emailField(), NEW_EMAIL);
    await events.click(within(dialog()).getByRole('button', { name: 'Gửi mã' }));
    await within(dialog()).findByRole('status');
    await events.type(codeField()!, '000000');
    await events.click(saveButton());

    expect(await within(dialog()).findByText(SECURITY_CODE_WRONG)).toBeInTheDocument();
    expect(codeField()).toHaveAttribute('aria-invalid', 'true');
    expect(codeField()).toHaveFocus();
    expect(within(dialog()).queryByRole('alert')).toBeNull();
    expect(db.user.email).toBe(CURRENT);
    expect(screen.queryByText('Thay đổi địa chỉ email thành công!')).toBeNull();
  });

  it('shows a refused captcha in the modal', async () => {
    captcha.token = captchaTokenFor('registerFormSubmit');
    const { events } = await openDialog(unverified());
    await fillUnverified(events);
    await events.click(saveButton());

    const alert = await within(dialog()).findByRole('alert');
    expect(alert).toHaveTextContent('Thay đổi địa chỉ email không thành công');
    expect(alert).toHaveTextContent(SECURITY_CAPTCHA_REFUSED);
    expect(db.user.email).toBe(CURRENT);
  });

  it('shows the server message of any other failure in the modal', async () => {
    server.use(http.post(CHANGE, () => HttpResponse.json({ message: 'Máy chủ đang bảo trì.' }, { status: 503 })));
    const { events } = await openDialog(unverified());
    await fillUnverified(events);
    await events.click(saveButton());

    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('Máy chủ đang bảo trì.');
    expect(saveButton()).toBeEnabled();
  });

  it('does nothing on save while the captcha has not loaded', async () => {
    captcha.loaded = false;
    const { events } = await openDialog(unverified());
    await fillUnverified(events);
    await events.click(saveButton());

    // Give a request the time it would take.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(db.requests).not.toContain(`POST ${CHANGE}`);
    expect(dialog()).toBeInTheDocument();
    expect(db.user.email).toBe(CURRENT);
  });

  it('starts afresh when opened again', async () => {
    const { events } = await openDialog(unverified());
    await fillUnverified(events);
    await events.click(saveButton());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(section()).getByRole('status')).toBeInTheDocument();

    await events.click(within(section()).getByRole('button', { name: 'Thay đổi' }));
    expect(await screen.findByRole('dialog', { name: 'Thay đổi email bảo vệ' })).toBeInTheDocument();
    expect(emailField()).toHaveValue(NEW_EMAIL);
    expect(saveButton()).toBeDisabled();
    // Starting another change clears the last one's success.
    expect(screen.queryByText('Thay đổi địa chỉ email thành công!')).toBeNull();
  });
});
