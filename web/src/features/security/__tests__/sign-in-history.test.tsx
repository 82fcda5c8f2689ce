import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { formatDateTime } from '@/lib/format';
import { server } from '@/testing/mocks/server';
import { buildSignIn, signInsDb } from '@/testing/mocks/sign-ins-handlers';
import { renderApp, screen, within } from '@/testing/test-utils';

import { SIGN_INS_SHOWN } from '../components/sign-in-history';

const SIGN_INS = '/api/me/sign-ins';
const HEADING = 'Lịch sử đăng nhập';

const section = () => screen.getByRole('region', { name: HEADING });
const items = () => within(within(section()).getByRole('list', { name: HEADING })).queryAllByRole('listitem');

async function openScreen() {
  const rendered = renderApp('/security', { user: true });
  await within(await screen.findByRole('region', { name: HEADING })).findByRole('list');
  return rendered;
}

describe('sign-in history', () => {
  it('says it is loading, then lists each sign-in newest first with its time, device, IP, method and outcome', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.get(SIGN_INS, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return undefined;
      }),
    );
    renderApp('/security', { user: true });
    const history = await screen.findByRole('region', { name: HEADING });
    expect(await within(history).findByRole('status')).toHaveTextContent('Đang tải lịch sử đăng nhập...');
    release();
    await within(history).findByRole('list', { name: HEADING });

    const [totp, wrongCode, wrongPassword, recovery, password] = items();
    expect(items()).toHaveLength(5);

    expect(totp).toHaveTextContent('Safari 17 trên iPhone');
    expect(within(totp!).getByText(formatDateTime('2026-11-22T10:05:00Z'))).toHaveAttribute(
      'datetime',
      '2026-11-22T10:05:00Z',
    );
    expect(totp).toHaveTextContent('Địa chỉ IP: 113.161.52.7');
    expect(totp).toHaveTextContent('Đăng nhập bằng: Ứng dụng xác thực');
    expect(within(totp!).getByText('Thành công')).toBeInTheDocument();

    expect(wrongCode).toHaveTextContent('Safari 17 trên iPhone');
    expect(wrongCode).toHaveTextContent(formatDateTime('2026-11-22T10:04:00Z'));
    expect(wrongCode).toHaveTextContent('Đăng nhập bằng: Ứng dụng xác thực');
    expect(within(wrongCode!).getByText('Sai mã xác thực')).toBeInTheDocument();
    expect(within(wrongCode!).queryByText('Thành công')).toBeNull();

    expect(wrongPassword).toHaveTextContent('Firefox 127 trên macOS');
    expect(wrongPassword).toHaveTextContent('Địa chỉ IP: 14.161.20.9');
    expect(wrongPassword).toHaveTextContent('Đăng nhập bằng: Mật khẩu');
    expect(within(wrongPassword!).getByText('Sai mật khẩu')).toBeInTheDocument();
    expect(within(wrongPassword!).queryByText('Thành công')).toBeNull();

    expect(recovery).toHaveTextContent('Chrome 126 trên Windows 10');
    expect(recovery).toHaveTextContent('Đăng nhập bằng: Mã khôi phục');
    expect(within(recovery!).getByText('Thành công')).toBeInTheDocument();

    expect(password).toHaveTextContent('Đăng nhập bằng: Mật khẩu');
    expect(password).toHaveTextContent(formatDateTime('2026-11-19T07:00:00Z'));
    // The list only shows: nothing to press.
    expect(within(section()).queryByRole('button')).toBeNull();
  });

  it('names every way of signing in, and the device as the server words it', async () => {
    signInsDb.signIns = [
      buildSignIn({ method: 'passkey', device: 'Edge 125 trên Windows 11' }),
      buildSignIn({ method: 'recoveryCode' }),
      buildSignIn({ method: 'totp' }),
      buildSignIn({ method: 'password', device: '', userAgent: '' }),
    ];
    await openScreen();
    expect(items().map((item) => within(item).getByText(/^Đăng nhập bằng: /).textContent)).toEqual([
      'Đăng nhập bằng: Khóa truy cập (passkey)',
      'Đăng nhập bằng: Mã khôi phục',
      'Đăng nhập bằng: Ứng dụng xác thực',
      'Đăng nhập bằng: Mật khẩu',
    ]);
    expect(items()[0]).toHaveTextContent('Edge 125 trên Windows 11');
    // Without the server's words for the device.
    expect(items()[3]).toHaveTextContent('Thiết bị không xác định');
  });

  it('marks a refused attempt whatever the reason, and leaves out what it does not know', async () => {
    signInsDb.signIns = [
      // A reason this version of the app does not know yet.
      buildSignIn({ succeeded: false, failure: 'locked' as 'wrongCode', method: 'webauthn' as 'passkey', ip: '' }),
    ];
    await openScreen();
    const [item] = items();
    expect(within(item!).getByText('Không thành công')).toBeInTheDocument();
    expect(item).not.toHaveTextContent('Đăng nhập bằng');
    expect(item).not.toHaveTextContent('Địa chỉ IP');
  });

  it('shows the first entries, then all of them on request', async () => {
    signInsDb.signIns = Array.from({ length: 50 }, (_, index) =>
      buildSignIn({ occurredAt: new Date(Date.UTC(2026, 10, 22, 10) - index * 60_000).toISOString() }),
    );
    const { events } = await openScreen();
    expect(items()).toHaveLength(SIGN_INS_SHOWN);

    await events.click(within(section()).getByRole('button', { name: 'Xem tất cả (50)' }));
    expect(items()).toHaveLength(50);
    expect(within(section()).queryByRole('button')).toBeNull();
  });

  it('says when there is no sign-in yet', async () => {
    signInsDb.signIns = [];
    renderApp('/security', { user: true });
    const history = await screen.findByRole('region', { name: HEADING });
    expect(await within(history).findByText('Chưa có lần đăng nhập nào.')).toBeInTheDocument();
    expect(within(history).queryByRole('list')).toBeNull();
  });

  it('offers to try again when the history cannot be loaded', async () => {
    let fail = true;
    server.use(http.get(SIGN_INS, () => (fail ? HttpResponse.json({ message: 'Lỗi' }, { status: 500 }) : undefined)));
    const { events } = renderApp('/security', { user: true });
    const history = await screen.findByRole('region', { name: HEADING });
    expect(await within(history).findByText('Kết nối đến máy chủ bị gián đoạn, xin thử lại sau')).toBeInTheDocument();
    expect(within(history).queryByRole('list')).toBeNull();

    fail = false;
    await events.click(within(history).getByRole('button', { name: 'Thử lại' }));
    expect(await within(history).findByRole('list', { name: HEADING })).toBeInTheDocument();
    expect(items()).toHaveLength(5);
  });
});
