import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { buildUser, TEST_PASSWORD } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import {
  RECOVERY_CODES,
  TOTP_CODES,
  TOTP_SECRET,
  TWO_FACTOR_ALREADY_ENABLED,
  TWO_FACTOR_CODE_WRONG,
  TWO_FACTOR_NOT_STARTED,
  TWO_FACTOR_PASSWORD_WRONG,
  TWO_FACTOR_TOO_MANY,
  twoFactorDb,
} from '@/testing/mocks/two-factor-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

const TOTP = '/api/me/two-factor/totp';
const CONFIRM = '/api/me/two-factor/totp/confirm';

const card = () => screen.getByRole('region', { name: 'Xác thực hai lớp' });
const setupDialog = () => screen.getByRole('dialog', { name: 'Thiết lập xác thực hai lớp' });
const disableDialog = () => screen.getByRole('dialog', { name: 'Tắt xác thực hai lớp' });
const codeField = (dialog: HTMLElement) => within(dialog).getByLabelText(/^Mã xác thực/, { selector: 'input' });
const passwordField = (dialog: HTMLElement) =>
  within(dialog).getByLabelText(/^Mật khẩu hiện tại/, { selector: 'input' });
const qrCode = (dialog: HTMLElement) =>
  within(dialog).queryByRole('img', { name: 'Mã QR để thêm tài khoản player01 vào ứng dụng xác thực' });

/** The message sits in the field's group, which holds the field, and the field is marked invalid. */
function expectUnderField(field: HTMLElement, message: string) {
  const text = within(field.closest<HTMLElement>('[role="dialog"]')!).getByText(message);
  expect(text.closest('[role="group"]')).toContainElement(field);
  expect(field).toHaveAttribute('aria-invalid', 'true');
}

/** Opens the set-up modal at its first step, the current password. */
async function openPasswordStep() {
  const rendered = renderApp('/security', { user: true });
  const twoFactor = await screen.findByRole('region', { name: 'Xác thực hai lớp' });
  await rendered.events.click(within(twoFactor).getByRole('button', { name: 'Bật xác thực hai lớp' }));
  expect(await screen.findByRole('dialog', { name: 'Thiết lập xác thực hai lớp' })).toBeInTheDocument();
  return rendered;
}

/** Opens the set-up modal and gives the right password: the QR code, the secret and the code field. */
async function openSetup() {
  const rendered = await openPasswordStep();
  await rendered.events.type(passwordField(setupDialog()), TEST_PASSWORD);
  await rendered.events.click(within(setupDialog()).getByRole('button', { name: 'Tiếp tục' }));
  expect(await within(setupDialog()).findByTestId('totp-secret')).toBeInTheDocument();
  return rendered;
}

async function openDisabling() {
  const rendered = renderApp('/security', { user: buildUser({ mfaEnabled: true }) });
  const twoFactor = await screen.findByRole('region', { name: 'Xác thực hai lớp' });
  await rendered.events.click(within(twoFactor).getByRole('button', { name: 'Tắt xác thực hai lớp' }));
  expect(await screen.findByRole('dialog', { name: 'Tắt xác thực hai lớp' })).toBeInTheDocument();
  return rendered;
}

const meReads = () => db.requests.filter((request) => request === 'GET /api/me').length;

describe('two-factor: turning it on', () => {
  it('asks for the current password first, and hands out no secret before it', async () => {
    const { events } = await openPasswordStep();
    const dialog = setupDialog();
    const password = passwordField(dialog);
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    expect(password).toHaveFocus();
    expect(qrCode(dialog)).toBeNull();
    expect(within(dialog).queryByTestId('totp-secret')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Tiếp tục' })).toBeDisabled();
    expect(db.requests).not.toContain(`POST ${TOTP}`);

    // Left empty: said under the field, and nothing is sent.
    await events.tab();
    await waitFor(() => expectUnderField(passwordField(setupDialog()), 'Hãy nhập mật khẩu hiện tại của bạn.'));
    expect(within(setupDialog()).getByRole('button', { name: 'Tiếp tục' })).toBeDisabled();

    await events.type(passwordField(setupDialog()), TEST_PASSWORD);
    await events.click(within(setupDialog()).getByRole('button', { name: 'Tiếp tục' }));
    expect(await within(setupDialog()).findByTestId('totp-secret')).toHaveTextContent(TOTP_SECRET);
    expect(codeField(setupDialog())).toHaveFocus();
    expect(twoFactorDb.bodies).toEqual([{ path: '/me/two-factor/totp', body: { password: TEST_PASSWORD } }]);
  });

  it('puts a wrong password under the field and shows no secret or QR code', async () => {
    const { events } = await openPasswordStep();
    await events.type(passwordField(setupDialog()), 'Sai-mat-khau-1!');
    await events.click(within(setupDialog()).getByRole('button', { name: 'Tiếp tục' }));

    await waitFor(() => expectUnderField(passwordField(setupDialog()), TWO_FACTOR_PASSWORD_WRONG));
    expect(qrCode(setupDialog())).toBeNull();
    expect(within(setupDialog()).queryByTestId('totp-secret')).toBeNull();
    expect(within(setupDialog()).queryByLabelText(/^Mã xác thực/)).toBeNull();
    expect(within(setupDialog()).queryByRole('alert')).toBeNull();
    expect(setupDialog()).not.toHaveTextContent(TOTP_SECRET);
    expect(twoFactorDb.pendingSecret).toBeNull();
    expect(db.user.mfaEnabled).toBe(false);
  });

  it('after too many wrong passwords (429) says for how many minutes under the field, and waits', async () => {
    server.use(
      http.post(TOTP, () =>
        HttpResponse.json({ message: TWO_FACTOR_TOO_MANY, errors: {} }, { status: 429, headers: { 'Retry-After': '600' } }),
      ),
    );
    const { events } = await openPasswordStep();
    await events.type(passwordField(setupDialog()), `${TEST_PASSWORD}{Enter}`);

    const message = 'Bạn đã nhập sai quá nhiều lần. Vui lòng thử lại sau 10 phút.';
    await waitFor(() => expectUnderField(passwordField(setupDialog()), message));
    expect(within(setupDialog()).getByRole('button', { name: 'Tiếp tục' })).toBeDisabled();
    expect(within(setupDialog()).queryByRole('alert')).toBeNull();
    expect(within(setupDialog()).queryByTestId('totp-secret')).toBeNull();
  });

  it('shows the QR code and the secret, refuses a wrong code, then shows the ten recovery codes once', async () => {
    const { events } = await openSetup();
    const dialog = setupDialog();

    // The QR code holds the otpauth URL; the secret is there to type in by hand.
    const qr = qrCode(dialog);
    expect(qr?.tagName).toBe('svg');
    expect(within(dialog).getByTestId('totp-secret')).toHaveTextContent(new RegExp(`^${TOTP_SECRET}$`));
    const code = codeField(dialog);
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Xác nhận' })).toBeDisabled();

    // A wrong code: under the field, and the dialog stays.
    await events.type(code, '000000');
    await events.click(within(dialog).getByRole('button', { name: 'Xác nhận' }));
    await waitFor(() => expectUnderField(codeField(setupDialog()), TWO_FACTOR_CODE_WRONG));
    expect(db.user.mfaEnabled).toBe(false);

    // The app's code, typed with a space in it.
    await events.clear(codeField(setupDialog()));
    await events.type(codeField(setupDialog()), `${TOTP_CODES[0].slice(0, 3)} ${TOTP_CODES[0].slice(3)}`);
    await events.click(within(setupDialog()).getByRole('button', { name: 'Xác nhận' }));

    const codes = await screen.findByRole('dialog', { name: 'Lưu mã khôi phục' });
    expect(twoFactorDb.bodies.map(({ body }) => body)).toEqual([
      { password: TEST_PASSWORD },
      { code: '000000' },
      { code: TOTP_CODES[0] },
    ]);
    expect(within(codes).getAllByTestId('recovery-code').map((item) => item.textContent)).toEqual([...RECOVERY_CODES]);
    expect(codes).toHaveTextContent('Các mã này chỉ hiển thị một lần duy nhất');
    expect(codes).toHaveTextContent('bạn sẽ không xem lại được các mã');
    // No way out but 'Tôi đã lưu mã': no close button, no Cancel.
    expect(within(codes).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Sao chép',
      'Tôi đã lưu mã',
    ]);
    // /me is not read again while the codes show: the card behind them stays as it was.
    const readsBefore = meReads();
    // (The card is hidden from the accessibility tree behind the modal.)
    expect(screen.getByText('Đang tắt')).toBeInTheDocument();

    await events.click(within(codes).getByRole('button', { name: 'Tôi đã lưu mã' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // /me read again: the card says it is on, and offers to turn it off.
    expect(await within(card()).findByText('Đang bật')).toBeInTheDocument();
    expect(meReads()).toBeGreaterThan(readsBefore);
    expect(within(card()).getByRole('status')).toHaveTextContent('Bật xác thực hai lớp thành công!');
    expect(within(card()).getByRole('button', { name: 'Tắt xác thực hai lớp' })).toBeInTheDocument();
    expect(within(card()).queryByRole('button', { name: 'Bật xác thực hai lớp' })).toBeNull();
  });

  it('copies the secret', async () => {
    const { events } = await openSetup();
    await events.click(within(setupDialog()).getByRole('button', { name: 'Sao chép khóa' }));
    expect(await navigator.clipboard.readText()).toBe(TOTP_SECRET);
    expect(within(setupDialog()).getByText('Đã sao chép')).toBeInTheDocument();
  });

  it('copies the recovery codes, one a line, and downloads them as a text file', async () => {
    const { events } = await openSetup();
    await events.type(codeField(setupDialog()), `${TOTP_CODES[0]}{Enter}`);
    const codes = await screen.findByRole('dialog', { name: 'Lưu mã khôi phục' });

    await events.click(within(codes).getByRole('button', { name: 'Sao chép' }));
    expect(await navigator.clipboard.readText()).toBe(RECOVERY_CODES.join('\n'));
    expect(within(codes).getByText('Đã sao chép')).toBeInTheDocument();

    // A .txt file with a line about the codes, then the codes.
    const download = within(codes).getByRole('link', { name: 'Tải xuống' });
    expect(download).toHaveAttribute('download', 'kid-player01-recovery-codes.txt');
    const href = download.getAttribute('href')!;
    expect(href.startsWith('data:text/plain;charset=utf-8,')).toBe(true);
    const text = decodeURIComponent(href.slice('data:text/plain;charset=utf-8,'.length));
    expect(text).toBe(
      `Mã khôi phục xác thực hai lớp của tài khoản Kid player01. Mỗi mã chỉ dùng được một lần.\n\n${RECOVERY_CODES.join('\n')}\n`,
    );
  });

  it('asks for six digits before sending', async () => {
    const { events } = await openSetup();
    const code = codeField(setupDialog());
    await events.type(code, '12345');
    await events.tab();
    expect(await within(setupDialog()).findByText('Mã xác thực gồm 6 chữ số.')).toBeInTheDocument();
    expect(within(setupDialog()).getByRole('button', { name: 'Xác nhận' })).toBeDisabled();
    await events.clear(code);
    expect(await within(setupDialog()).findByText('Hãy nhập mã xác thực.')).toBeInTheDocument();
    await events.type(code, '12345a');
    expect(await within(setupDialog()).findByText('Mã xác thực gồm 6 chữ số.')).toBeInTheDocument();
    expect(db.requests).not.toContain(`POST ${CONFIRM}`);
  });

  it('after too many wrong codes (429) says for how many minutes under the field, and waits', async () => {
    server.use(
      http.post(CONFIRM, () =>
        HttpResponse.json(
          { message: 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.', errors: {} },
          { status: 429, headers: { 'Retry-After': '600' } },
        ),
      ),
    );
    const { events } = await openSetup();
    await events.type(codeField(setupDialog()), `${TOTP_CODES[0]}{Enter}`);

    const message = 'Bạn đã nhập sai mã xác thực quá nhiều lần. Vui lòng thử lại sau 10 phút.';
    await waitFor(() => expectUnderField(codeField(setupDialog()), message));
    expect(within(setupDialog()).getByRole('button', { name: 'Xác nhận' })).toBeDisabled();
    expect(within(setupDialog()).queryByRole('alert')).toBeNull();
  });

  it('shows a refusal the field cannot say above it, e.g. an enrolment replaced meanwhile (409)', async () => {
    const { events } = await openSetup();
    twoFactorDb.pendingSecret = null;
    await events.type(codeField(setupDialog()), TOTP_CODES[0]);
    await events.click(within(setupDialog()).getByRole('button', { name: 'Xác nhận' }));

    const alert = await within(setupDialog()).findByRole('alert');
    expect(alert).toHaveTextContent('Bật xác thực hai lớp không thành công');
    expect(alert).toHaveTextContent(TWO_FACTOR_NOT_STARTED);
  });

  it('leaves two-factor off when cancelled, and starts with a new secret the next time', async () => {
    const { events } = await openSetup();
    await events.click(within(setupDialog()).getByRole('button', { name: 'Hủy' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(card()).getByText('Đang tắt')).toBeInTheDocument();
    expect(within(card()).queryByRole('status')).toBeNull();

    // The password again, from an empty field, then a new secret.
    await events.click(within(card()).getByRole('button', { name: 'Bật xác thực hai lớp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Thiết lập xác thực hai lớp' });
    expect(passwordField(dialog)).toHaveValue('');
    await events.type(passwordField(dialog), `${TEST_PASSWORD}{Enter}`);
    expect(await within(setupDialog()).findByTestId('totp-secret')).toBeInTheDocument();
    expect(codeField(setupDialog())).toHaveValue('');
    expect(db.requests.filter((request) => request === `POST ${TOTP}`)).toHaveLength(2);
  });

  it('says so when two-factor turned on meanwhile (409), and shows it on', async () => {
    const { events } = renderApp('/security', { user: true });
    const twoFactor = await screen.findByRole('region', { name: 'Xác thực hai lớp' });
    db.user = { ...db.user, mfaEnabled: true };
    await events.click(within(twoFactor).getByRole('button', { name: 'Bật xác thực hai lớp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Thiết lập xác thực hai lớp' });
    await events.type(passwordField(dialog), `${TEST_PASSWORD}{Enter}`);

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Bật xác thực hai lớp không thành công');
    expect(alert).toHaveTextContent(TWO_FACTOR_ALREADY_ENABLED);
    expect(within(dialog).queryByTestId('totp-secret')).toBeNull();
    // (The card is hidden from the accessibility tree behind the modal.)
    expect(await within(twoFactor).findByText('Đang bật')).toBeInTheDocument();
  });
});

describe('two-factor: turning it off', () => {
  it('shows it on, with the action that turns it off', async () => {
    renderApp('/security', { user: buildUser({ mfaEnabled: true }) });
    const twoFactor = await screen.findByRole('region', { name: 'Xác thực hai lớp' });
    expect(within(twoFactor).getByText('Đang bật')).toBeInTheDocument();
    expect(within(twoFactor).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Tắt xác thực hai lớp',
    ]);
  });

  it('puts a wrong password under the password, a wrong code under the code, then turns it off', async () => {
    const { events } = await openDisabling();
    const save = () => within(disableDialog()).getByRole('button', { name: 'Xác nhận' });
    expect(save()).toBeDisabled();
    expect(passwordField(disableDialog())).toHaveAttribute('autocomplete', 'current-password');
    expect(codeField(disableDialog())).toHaveAttribute('autocomplete', 'one-time-code');

    await events.type(passwordField(disableDialog()), 'Sai-mat-khau-1!');
    await events.type(codeField(disableDialog()), TOTP_CODES[0]);
    await events.click(save());
    await waitFor(() => expectUnderField(passwordField(disableDialog()), TWO_FACTOR_PASSWORD_WRONG));
    expect(codeField(disableDialog())).not.toHaveAttribute('aria-invalid');
    expect(db.user.mfaEnabled).toBe(true);

    await events.clear(passwordField(disableDialog()));
    await events.type(passwordField(disableDialog()), TEST_PASSWORD);
    await events.clear(codeField(disableDialog()));
    await events.type(codeField(disableDialog()), '999999');
    await events.click(save());
    await waitFor(() => expectUnderField(codeField(disableDialog()), TWO_FACTOR_CODE_WRONG));
    expect(passwordField(disableDialog())).not.toHaveAttribute('aria-invalid');

    // A recovery code does too, typed in lower case.
    await events.clear(codeField(disableDialog()));
    await events.type(codeField(disableDialog()), RECOVERY_CODES[0].toLowerCase());
    await events.click(save());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(card()).getByText('Đang tắt')).toBeInTheDocument();
    expect(within(card()).getByRole('status')).toHaveTextContent('Đã tắt xác thực hai lớp.');
    expect(within(card()).getByRole('button', { name: 'Bật xác thực hai lớp' })).toBeInTheDocument();
    expect(db.user.mfaEnabled).toBe(false);
    expect(twoFactorDb.bodies.at(-1)).toEqual({
      path: '/me/two-factor/totp',
      body: { password: TEST_PASSWORD, code: RECOVERY_CODES[0].toLowerCase() },
    });
  });

  it('asks for both fields before sending', async () => {
    const { events } = await openDisabling();
    await events.click(passwordField(disableDialog()));
    await events.tab();
    expect(await within(disableDialog()).findByText('Hãy nhập mật khẩu hiện tại của bạn.')).toBeInTheDocument();
    await events.click(codeField(disableDialog()));
    await events.tab();
    expect(await within(disableDialog()).findByText('Hãy nhập mã xác thực.')).toBeInTheDocument();
    expect(within(disableDialog()).getByRole('button', { name: 'Xác nhận' })).toBeDisabled();
  });

  it('after too many wrong attempts (429) says for how many minutes, and waits', async () => {
    server.use(
      http.delete(TOTP, () =>
        HttpResponse.json(
          { message: 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.', errors: {} },
          { status: 429, headers: { 'Retry-After': '300' } },
        ),
      ),
    );
    const { events } = await openDisabling();
    await events.type(passwordField(disableDialog()), TEST_PASSWORD);
    await events.type(codeField(disableDialog()), `${TOTP_CODES[0]}{Enter}`);

    const alert = await within(disableDialog()).findByRole('alert');
    expect(alert).toHaveTextContent('Tắt xác thực hai lớp không thành công');
    expect(alert).toHaveTextContent('Bạn đã nhập sai quá nhiều lần. Vui lòng thử lại sau 5 phút.');
    expect(within(disableDialog()).getByRole('button', { name: 'Xác nhận' })).toBeDisabled();
    expect(db.user.mfaEnabled).toBe(true);
  });
});
