import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { toaster } from '@/components/ui/toaster-store';
import { formatDateTime } from '@/lib/format';
import { TEST_PASSWORD } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import {
  AUTHENTICATOR_CREDENTIAL_ID,
  buildPasskey,
  listedPasskeys,
  PASSKEY_ALREADY_ADDED,
  PASSKEY_CHALLENGE,
  PASSKEY_DEVICE_NAME,
  PASSKEY_EXPIRED,
  PASSKEY_LIMIT,
  PASSKEY_NOT_FOUND,
  PASSKEY_PASSWORD_WRONG,
  passkeyDb,
} from '@/testing/mocks/passkey-handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { webauthnStub, withWebAuthn } from '@/testing/webauthn-stub';

vi.mock('@simplewebauthn/browser', async (importOriginal) =>
  (await import('@/testing/webauthn-stub')).stubWebAuthn(await importOriginal()),
);

const PASSKEYS = '/api/me/passkeys';
const OPTIONS = '/api/me/passkeys/options';
const HEADING = 'Passkey';

const card = () => screen.getByRole('region', { name: HEADING });
const items = () => within(within(card()).getByRole('list', { name: HEADING })).queryAllByRole('listitem');
const addDialog = () => screen.getByRole('dialog', { name: 'Thêm passkey' });
const passwordField = () => within(addDialog()).getByLabelText(/^Mật khẩu hiện tại/, { selector: 'input' });
const nameField = () => within(addDialog()).getByLabelText(/^Tên passkey/, { selector: 'input' });
const continueButton = () => within(addDialog()).getByRole('button', { name: 'Tiếp tục' });

/** The message sits in the field's group, which holds the field, and the field is marked invalid. */
function expectUnderField(field: HTMLElement, message: string) {
  const text = within(field.closest<HTMLElement>('[role="dialog"]')!).getByText(message);
  expect(text.closest('[role="group"]')).toContainElement(field);
  expect(field).toHaveAttribute('aria-invalid', 'true');
}

async function openScreen() {
  const rendered = renderApp('/security', { user: true });
  await within(await screen.findByRole('region', { name: HEADING })).findByRole('list');
  return rendered;
}

async function openAdding() {
  const rendered = await openScreen();
  await rendered.events.click(within(card()).getByRole('button', { name: 'Thêm passkey' }));
  expect(await screen.findByRole('dialog', { name: 'Thêm passkey' })).toBeInTheDocument();
  return rendered;
}

const bodiesTo = (path: string) => passkeyDb.bodies.filter((sent) => sent.path === path).map((sent) => sent.body);

beforeEach(() => {
  webauthnStub.reset();
  withWebAuthn();
  // The toaster outlives a test: no toast of an earlier one shows.
  toaster.remove();
});

describe('passkeys: the list', () => {
  it('says it is loading, then lists each passkey oldest first with when it was added and last used', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.get(PASSKEYS, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return undefined;
      }),
    );
    renderApp('/security', { user: true });
    const passkeys = await screen.findByRole('region', { name: HEADING });
    expect(passkeys).toHaveTextContent('vân tay, khuôn mặt hoặc mã PIN');
    expect(await within(passkeys).findByRole('status')).toHaveTextContent('Đang tải danh sách passkey...');
    release();
    await within(passkeys).findByRole('list', { name: HEADING });

    const [phone, laptop] = items();
    expect(items()).toHaveLength(2);
    expect(phone).toHaveTextContent('iPhone của An');
    expect(phone).toHaveTextContent(`Thêm ngày ${formatDateTime('2026-11-20T08:00:00Z')}`);
    expect(phone).toHaveTextContent(`Dùng lần cuối ${formatDateTime('2026-11-22T09:15:00Z')}`);
    expect(laptop).toHaveTextContent('Safari 17 trên macOS');
    expect(laptop).toHaveTextContent(`Thêm ngày ${formatDateTime('2026-11-21T14:30:00Z')}`);
    expect(laptop).toHaveTextContent('Chưa dùng');
    expect(within(phone!).getByRole('button', { name: 'Xóa passkey iPhone của An' })).toBeEnabled();
    expect(within(card()).getByRole('button', { name: 'Thêm passkey' })).toBeEnabled();
  });

  it('says when there is none yet', async () => {
    passkeyDb.passkeys = [];
    renderApp('/security', { user: true });
    const passkeys = await screen.findByRole('region', { name: HEADING });
    expect(await within(passkeys).findByText('Bạn chưa thêm passkey nào.')).toBeInTheDocument();
    expect(within(passkeys).queryByRole('list')).toBeNull();
    expect(within(passkeys).getByRole('button', { name: 'Thêm passkey' })).toBeInTheDocument();
  });

  it('in a browser without WebAuthn lists them and says it cannot add one', async () => {
    vi.unstubAllGlobals();
    await openScreen();
    expect(items()).toHaveLength(2);
    expect(within(card()).getByText('Trình duyệt này chưa hỗ trợ passkey.')).toBeInTheDocument();
    expect(within(card()).queryByRole('button', { name: 'Thêm passkey' })).toBeNull();
  });

  it('offers to try again when the list cannot be loaded', async () => {
    let fail = true;
    server.use(http.get(PASSKEYS, () => (fail ? HttpResponse.json({ message: 'Lỗi' }, { status: 500 }) : undefined)));
    const { events } = renderApp('/security', { user: true });
    const passkeys = await screen.findByRole('region', { name: HEADING });
    expect(await within(passkeys).findByText('Kết nối đến máy chủ bị gián đoạn, xin thử lại sau')).toBeInTheDocument();
    fail = false;
    await events.click(within(passkeys).getByRole('button', { name: 'Thử lại' }));
    expect(await within(passkeys).findByRole('list', { name: HEADING })).toBeInTheDocument();
  });
});

describe('passkeys: adding one', () => {
  it('asks for the password and a name, hands over to the browser, then lists the new passkey', async () => {
    const { events } = await openAdding();
    expect(passwordField()).toHaveFocus();
    expect(passwordField()).toHaveAttribute('autocomplete', 'current-password');
    expect(continueButton()).toBeDisabled();

    await events.type(passwordField(), TEST_PASSWORD);
    await events.type(nameField(), '  Laptop công ty  ');
    await events.click(continueButton());

    const toast = await screen.findByText('Đã thêm passkey!');
    expect(toast.closest('[role="status"]') ?? toast.parentElement).toHaveTextContent(
      'Từ nay bạn có thể đăng nhập bằng passkey "Laptop công ty" mà không cần mật khẩu.',
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(items()).toHaveLength(3);
    expect(items()[2]).toHaveTextContent('Laptop công ty');
    expect(items()[2]).toHaveTextContent('Chưa dùng');

    // The password first; the browser got the server's options; then its answer with the name.
    expect(bodiesTo('/me/passkeys/options')).toEqual([{ password: TEST_PASSWORD }]);
    expect(webauthnStub.registrations).toHaveLength(1);
    expect(webauthnStub.registrations[0]).toMatchObject({ challenge: PASSKEY_CHALLENGE, rp: { id: 'localhost', name: 'Kid' } });
    expect(bodiesTo('/me/passkeys')).toHaveLength(1);
    expect(bodiesTo('/me/passkeys')[0]).toMatchObject({
      ceremonyId: passkeyDb.issued[0],
      credential: { id: AUTHENTICATOR_CREDENTIAL_ID, type: 'public-key' },
      name: 'Laptop công ty',
    });
    const calls = db.requests.filter((request) => !request.startsWith('GET /api/me'));
    expect(calls).toEqual([
      'GET /api/auth/csrf-cookie',
      'POST /api/me/passkeys/options',
      'GET /api/auth/csrf-cookie',
      'POST /api/me/passkeys',
    ]);
  });

  it('leaves the name to the server when none is given', async () => {
    const { events } = await openAdding();
    // Enter moves on to the name, and Enter in the name (left empty) sends.
    await events.type(passwordField(), `${TEST_PASSWORD}{Enter}`);
    expect(nameField()).toHaveFocus();
    await events.keyboard('{Enter}');
    expect(await screen.findByText('Đã thêm passkey!')).toBeInTheDocument();
    expect(bodiesTo('/me/passkeys')[0]).toHaveProperty('name', '');
    await waitFor(() => expect(items()[2]).toHaveTextContent(PASSKEY_DEVICE_NAME));
  });

  it('says a wrong password under it, and the browser is not asked', async () => {
    const { events } = await openAdding();
    await events.type(passwordField(), 'wrong-password');
    await events.click(continueButton());
    await waitFor(() => expectUnderField(passwordField(), PASSKEY_PASSWORD_WRONG));
    expect(passwordField()).toHaveFocus();
    expect(webauthnStub.registrations).toEqual([]);
    expect(within(addDialog()).queryByRole('alert')).toBeNull();
    expect(listedPasskeys()).toHaveLength(2);
  });

  it('after too many wrong passwords (429) says for how many minutes under the field, and waits', async () => {
    server.use(
      http.post(OPTIONS, () =>
        HttpResponse.json(
          { message: 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.', errors: {} },
          { status: 429, headers: { 'Retry-After': '600' } },
        ),
      ),
    );
    const { events } = await openAdding();
    await events.type(passwordField(), TEST_PASSWORD);
    await events.click(continueButton());
    await waitFor(() =>
      expectUnderField(passwordField(), 'Bạn đã nhập sai mật khẩu quá nhiều lần. Vui lòng thử lại sau 10 phút.'),
    );
    expect(continueButton()).toBeDisabled();
    expect(within(addDialog()).queryByRole('alert')).toBeNull();
  });

  it('says a name too long under it before anything is sent', async () => {
    const { events } = await openAdding();
    await events.type(passwordField(), TEST_PASSWORD);
    await events.type(nameField(), 'x'.repeat(51));
    await events.tab();
    await waitFor(() => expectUnderField(nameField(), 'Tên passkey tối đa 50 ký tự.'));
    expect(continueButton()).toBeDisabled();
    expect(passkeyDb.bodies).toEqual([]);
  });

  it('shows above the fields that the account has its 10 passkeys already (409)', async () => {
    passkeyDb.passkeys = Array.from({ length: 10 }, (_, index) => ({
      passkey: buildPasskey({ name: `Passkey ${index + 1}` }),
      credentialId: `credential-${index}`,
    }));
    const { events } = await openAdding();
    await events.type(passwordField(), TEST_PASSWORD);
    await events.click(continueButton());
    const alert = await within(addDialog()).findByRole('alert');
    expect(alert).toHaveTextContent('Thêm passkey không thành công');
    expect(alert).toHaveTextContent(PASSKEY_LIMIT);
    expect(webauthnStub.registrations).toEqual([]);
  });

  it('says calmly that the browser prompt was closed, and tries again', async () => {
    webauthnStub.outcome = 'dismiss';
    const { events } = await openAdding();
    await events.type(passwordField(), TEST_PASSWORD);
    await events.click(continueButton());

    expect(await within(addDialog()).findByRole('status')).toHaveTextContent(
      'Bạn đã hủy tạo passkey. Nhấn "Tiếp tục" để thử lại.',
    );
    expect(within(addDialog()).queryByRole('alert')).toBeNull();
    expect(bodiesTo('/me/passkeys')).toEqual([]);

    webauthnStub.outcome = 'confirm';
    await events.click(continueButton());
    expect(await screen.findByText('Đã thêm passkey!')).toBeInTheDocument();
    expect(bodiesTo('/me/passkeys/options')).toHaveLength(2);
  });

  it('shows the server refusal of the passkey above the fields', async () => {
    // The browser answers with a passkey that is on an account already.
    passkeyDb.passkeys.push({ passkey: buildPasskey({ name: 'Cũ' }), credentialId: AUTHENTICATOR_CREDENTIAL_ID });
    const { events } = await openAdding();
    await events.type(passwordField(), TEST_PASSWORD);
    await events.click(continueButton());
    const alert = await within(addDialog()).findByRole('alert');
    expect(alert).toHaveTextContent(PASSKEY_ALREADY_ADDED);
    expect(passwordField()).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('shows an expired ceremony above the fields', async () => {
    server.use(
      http.post(PASSKEYS, () =>
        HttpResponse.json({ message: PASSKEY_EXPIRED, errors: { credential: [PASSKEY_EXPIRED] } }, { status: 422 }),
      ),
    );
    const { events } = await openAdding();
    await events.type(passwordField(), TEST_PASSWORD);
    await events.click(continueButton());
    expect(await within(addDialog()).findByRole('alert')).toHaveTextContent(PASSKEY_EXPIRED);
  });

  it('says when this device holds a passkey of the account already, or the browser failed', async () => {
    webauthnStub.outcome = 'already-registered';
    const { events } = await openAdding();
    await events.type(passwordField(), TEST_PASSWORD);
    await events.click(continueButton());
    expect(await within(addDialog()).findByRole('alert')).toHaveTextContent(
      'Thiết bị này đã lưu một passkey của tài khoản bạn.',
    );

    webauthnStub.outcome = 'fail';
    await events.click(continueButton());
    await waitFor(() =>
      expect(within(addDialog()).getByRole('alert')).toHaveTextContent('Trình duyệt không tạo được passkey. Hãy thử lại.'),
    );
    expect(bodiesTo('/me/passkeys')).toEqual([]);
  });
});

describe('passkeys: removing one', () => {
  it('asks first, then removes it after the CSRF cookie and drops it from the list', async () => {
    const { events } = await openScreen();
    await events.click(within(items()[0]!).getByRole('button', { name: 'Xóa passkey iPhone của An' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Xóa passkey?' });
    expect(confirm).toHaveTextContent('passkey "iPhone của An" không thể dùng để đăng nhập');

    await events.click(within(confirm).getByRole('button', { name: 'Xóa passkey' }));
    expect(await screen.findByText('Đã xóa passkey "iPhone của An".')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(items()[0]).toHaveTextContent('Safari 17 trên macOS');
    const calls = db.requests.filter((request) => !request.startsWith('GET /api/me'));
    expect(calls).toEqual(['GET /api/auth/csrf-cookie', expect.stringMatching(/^DELETE \/api\/me\/passkeys\/[\w-]+$/)]);
  });

  it('removes nothing when the player thinks again', async () => {
    const { events } = await openScreen();
    await events.click(within(items()[1]!).getByRole('button', { name: 'Xóa passkey Safari 17 trên macOS' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Xóa passkey?' });
    await events.click(within(confirm).getByRole('button', { name: 'Hủy' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(items()).toHaveLength(2);
    expect(db.requests.filter((request) => request.startsWith('DELETE'))).toEqual([]);
  });

  it('says so when it was removed elsewhere meanwhile (404), and the list catches up', async () => {
    const { events } = await openScreen();
    await events.click(within(items()[0]!).getByRole('button', { name: 'Xóa passkey iPhone của An' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Xóa passkey?' });
    passkeyDb.passkeys = passkeyDb.passkeys.slice(1);
    await events.click(within(confirm).getByRole('button', { name: 'Xóa passkey' }));

    expect(await within(card()).findByRole('alert')).toHaveTextContent(PASSKEY_NOT_FOUND);
    await waitFor(() => expect(items()).toHaveLength(1));
  });
});
