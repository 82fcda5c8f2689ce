import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { buildUser, TEST_PASSWORD } from '@/testing/data';
import { db } from '@/testing/mocks/db';
import {
  ACCOUNT_CLOSED,
  accountClosure,
  DELETE_PASSWORD_WRONG,
  ERASE_AFTER,
} from '@/testing/mocks/profile-handlers';
import { server } from '@/testing/mocks/server';
import { loadScreens, renderApp, screen, waitFor, within } from '@/testing/test-utils';

const EXPORT = '/api/me/export';
const DELETE = '/api/me/delete';
const FILE_NAME = 'kid-du-lieu-ca-nhan-player01-20261127.json';

/** The files the page handed to the browser: each object URL's blob and the link's name. */
let saved: { blob: Blob; fileName: string }[] = [];

beforeEach(() => {
  saved = [];
  const blobs = new Map<string, Blob>();
  // jsdom has no object URLs, and cannot download: the link's click is recorded instead.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:kid/${blobs.size + 1}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) saved.push({ blob, fileName: this.download });
  });
});

afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

/** jsdom's Blob has no text(). */
function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable blob'));
    reader.readAsText(blob);
  });
}

async function card() {
  return screen.findByRole('region', { name: 'Dữ liệu cá nhân' });
}

/** Opens 'Xóa tài khoản?' from the card. */
async function openDeleteDialog(events: ReturnType<typeof renderApp>['events']) {
  await events.click(within(await card()).getByRole('button', { name: 'Xóa tài khoản' }));
  return screen.findByRole('alertdialog', { name: 'Xóa tài khoản?' });
}

const passwordInput = (dialog: HTMLElement) => within(dialog).getByLabelText(/^Mật khẩu hiện tại/);
const submitButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Xóa tài khoản' });

describe('personal data card', () => {
  it('offers the download of the data and closing the account, saying what each does', async () => {
    renderApp('/', { user: true });
    const region = await card();
    expect(region).toHaveTextContent('Nghị định 13/2023/NĐ-CP');
    expect(region).toHaveTextContent(
      'Một tệp JSON gồm hồ sơ, lịch sử đăng nhập, giao dịch, đơn nạp game và các thư Kid đã gửi cho bạn.',
    );
    expect(within(region).getByRole('button', { name: 'Tải xuống dữ liệu của tôi' })).toBeEnabled();
    expect(within(region).getByRole('button', { name: 'Xóa tài khoản' })).toBeEnabled();
    expect(db.requests).not.toContain(`GET ${EXPORT}`);
  });

  it('downloads the file under the name the server gives it, as the server sent it', async () => {
    const { events } = renderApp('/', { user: true });
    const region = await card();

    await events.click(within(region).getByRole('button', { name: 'Tải xuống dữ liệu của tôi' }));

    expect(await within(region).findByRole('status')).toHaveTextContent(`Đã tải xuống tệp ${FILE_NAME}.`);
    expect(db.requests.filter((request) => request === `GET ${EXPORT}`)).toHaveLength(1);
    expect(saved).toHaveLength(1);
    expect(saved[0]!.fileName).toBe(FILE_NAME);
    const file = JSON.parse(await readText(saved[0]!.blob)) as Record<string, unknown>;
    expect(file).toMatchObject({ schemaVersion: 1, profile: { username: 'player01', email: 'player01@example.com' } });
    // The link was removed once clicked.
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it("names the file itself when the server does not, and says the server's words when it fails", async () => {
    let fail = true;
    server.use(
      http.get(EXPORT, () =>
        fail
          ? HttpResponse.json({ message: 'Dịch vụ tạm thời gián đoạn, xin thử lại sau.' }, { status: 503 })
          : HttpResponse.json({ schemaVersion: 1 }),
      ),
    );
    const { events } = renderApp('/', { user: true });
    const region = await card();
    const button = within(region).getByRole('button', { name: 'Tải xuống dữ liệu của tôi' });

    await events.click(button);
    const alert = await within(region).findByRole('alert');
    expect(alert).toHaveTextContent('Tải xuống dữ liệu không thành công');
    expect(alert).toHaveTextContent('Dịch vụ tạm thời gián đoạn, xin thử lại sau.');
    expect(saved).toEqual([]);

    fail = false;
    await events.click(button);
    expect(await within(region).findByRole('status')).toHaveTextContent('Đã tải xuống tệp kid-du-lieu-ca-nhan.json.');
    expect(within(region).queryByRole('alert')).toBeNull();
    expect(saved.map((file) => file.fileName)).toEqual(['kid-du-lieu-ca-nhan.json']);
  });
});

// @isolated-module-graph: this file runs in a fresh worker (vite.config.ts). Closing the account
// ends in a full page load and a new sign-in; in the shared worker, once in two runs of the
// whole suite (2026-12-02), that sign-in reached the mock with other credentials than the ones
// typed. The likelier cause, found later the same day, was the signed-in user cached across the
// simulated page load (test-utils now clears it), so the file may go back to the shared worker.
describe('closing the account', () => {
  // Isolated, this file would import the screens the closing reaches inside a test's 5 s wait;
  // beside the late steps of scripts/test, the sign-in screen once took longer.
  beforeAll(() => loadScreens('/account-closed', '/login'), 60_000);

  it('says what closing does, and the KP balance and debt that go with the account', async () => {
    const { events } = renderApp('/', { user: buildUser({ credit: 12_345, debtCredit: 2_000 }) });
    const dialog = await openDeleteDialog(events);

    expect(dialog).toHaveTextContent('Khi bạn xác nhận xóa tài khoản player01:');
    expect(dialog).toHaveTextContent('Tài khoản được đóng ngay lập tức, bạn sẽ không thể đăng nhập được nữa.');
    expect(dialog).toHaveTextContent('Mọi thiết bị đang đăng nhập vào tài khoản đều bị đăng xuất.');
    expect(dialog).toHaveTextContent('Sau 30 ngày, thông tin cá nhân');
    expect(dialog).toHaveTextContent(
      'Các giao dịch KP được giữ lại theo quy định về chứng từ kế toán, không kèm thông tin cá nhân.',
    );
    const balance = within(dialog).getByTestId('delete-account-balance');
    expect(balance).toHaveTextContent('Số dư hiện tại: 12,345 KP sẽ không được hoàn lại.');
    expect(balance).toHaveTextContent('Tài khoản đang nợ 2,000 KP.');
    // Nothing can be sent without the password.
    expect(submitButton(dialog)).toBeDisabled();

    await events.click(within(dialog).getByRole('button', { name: 'Hủy' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(db.requests).not.toContain(`POST ${DELETE}`);
  });

  it('names no balance when the account holds no KP', async () => {
    const { events } = renderApp('/', { user: buildUser({ credit: 0, debtCredit: 0 }) });
    const dialog = await openDeleteDialog(events);
    expect(within(dialog).queryByTestId('delete-account-balance')).toBeNull();
    expect(dialog).not.toHaveTextContent('Số dư hiện tại');
  });

  it('says a wrong password under the field, and the account stays open', async () => {
    const { events, fullNavigations } = renderApp('/', { user: true });
    const dialog = await openDeleteDialog(events);

    await events.type(passwordInput(dialog), 'Sai-mat-khau-1!');
    await events.click(submitButton(dialog));

    expect(await within(dialog).findByText(DELETE_PASSWORD_WRONG)).toBeInTheDocument();
    expect(passwordInput(dialog)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(accountClosure).toEqual({ attempts: ['Sai-mat-khau-1!'], closed: false });
    expect(db.signedIn).toBe(true);
    expect(fullNavigations).toEqual([]);
  });

  it('closes the account with the password, then loads the page that says when the data goes', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.post(DELETE, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return undefined;
      }),
    );
    const { events, fullNavigations, router } = renderApp('/', { user: buildUser({ credit: 500 }) });
    const dialog = await openDeleteDialog(events);
    await events.type(passwordInput(dialog), TEST_PASSWORD);
    const button = submitButton(dialog);
    await events.click(button);
    // Busy until the server answers: a second press sends nothing more.
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('data-loading');
    release();

    // A full page load, as signing out: nothing of the closed account stays in memory.
    await waitFor(() =>
      expect(fullNavigations).toEqual([`/account-closed?eraseAfter=${encodeURIComponent(ERASE_AFTER)}`]),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Xóa tài khoản' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Tài khoản của bạn đã được đóng' })).toBeInTheDocument();
    expect(screen.getByText('Dữ liệu cá nhân của bạn sẽ bị xóa vĩnh viễn từ ngày 27/12/2026.')).toBeInTheDocument();
    expect(screen.getByText('Mọi thiết bị đã được đăng xuất khỏi tài khoản.')).toBeInTheDocument();
    // The public layout, without the signed-in shell's account menu.
    expect(screen.queryByRole('button', { name: /player01/ })).toBeNull();
    expect(router.state.location.pathname).toBe('/account-closed');
    expect(accountClosure).toEqual({ attempts: [TEST_PASSWORD], closed: true });
    expect(db.signedIn).toBe(false);
    const postAt = db.requests.indexOf(`POST ${DELETE}`);
    expect(db.requests[postAt - 1]).toBe('GET /api/auth/csrf-cookie');
    expect(db.requests.filter((request) => request === `POST ${DELETE}`)).toHaveLength(1);

    // Signing in again with the right password is told that the account is closed.
    await events.click(screen.getByRole('link', { name: 'Về trang đăng nhập' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    const username = screen.getByRole('textbox', { name: 'Tên đăng nhập' });
    const password = screen.getByLabelText(/^Mật khẩu/);
    await events.type(username, 'player01');
    await events.type(password, TEST_PASSWORD);
    // What the form sends: a failure below is then the server's answer, not lost typing.
    expect(username).toHaveValue('player01');
    expect(password).toHaveValue(TEST_PASSWORD);
    await events.click(screen.getByRole('button', { name: 'Đăng nhập' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(ACCOUNT_CLOSED);
    expect(router.state.location.pathname).toBe('/login');
  });

  it('says for how long it waits after too many wrong passwords, and sends nothing meanwhile', async () => {
    let attempts = 0;
    server.use(
      http.post(DELETE, () => {
        attempts += 1;
        return HttpResponse.json(
          { message: 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.', errors: {} },
          { status: 429, headers: { 'Retry-After': '90' } },
        );
      }),
    );
    const { events, fullNavigations } = renderApp('/', { user: true });
    const dialog = await openDeleteDialog(events);
    await events.type(passwordInput(dialog), TEST_PASSWORD);
    await events.click(submitButton(dialog));

    expect(
      await within(dialog).findByText('Bạn đã nhập sai mật khẩu quá nhiều lần. Vui lòng thử lại sau 2 phút.'),
    ).toBeInTheDocument();
    expect(passwordInput(dialog)).toHaveAttribute('aria-invalid', 'true');
    expect(submitButton(dialog)).toBeDisabled();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await events.type(passwordInput(dialog), '{Enter}');
    expect(attempts).toBe(1);
    expect(fullNavigations).toEqual([]);
  });

  it('shows a failure no field can say above the form', async () => {
    server.use(
      http.post(DELETE, () =>
        HttpResponse.json({ message: 'Dịch vụ tạm thời gián đoạn, xin thử lại sau.' }, { status: 503 }),
      ),
    );
    const { events } = renderApp('/', { user: true });
    const dialog = await openDeleteDialog(events);
    await events.type(passwordInput(dialog), TEST_PASSWORD);
    await events.click(submitButton(dialog));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Xóa tài khoản không thành công');
    expect(alert).toHaveTextContent('Dịch vụ tạm thời gián đoạn, xin thử lại sau.');
    expect(submitButton(dialog)).toBeEnabled();
  });
});

describe('account closed page', () => {
  it('without a date still says the data goes after 30 days, and leads to support and sign-in', async () => {
    renderApp('/account-closed');
    const heading = await screen.findByRole('heading', { level: 2, name: 'Tài khoản của bạn đã được đóng' });
    expect(heading).toBeInTheDocument();
    expect(screen.getByText('Dữ liệu cá nhân của bạn sẽ bị xóa vĩnh viễn sau 30 ngày.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Liên hệ hỗ trợ' })).toHaveAttribute('href', '/support');
    expect(screen.getByRole('link', { name: 'Về trang đăng nhập' })).toHaveAttribute('href', '/login');
  });
});
