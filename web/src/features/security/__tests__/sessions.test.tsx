import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { formatDateTime } from '@/lib/format';
import { db } from '@/testing/mocks/db';
import { buildSession, securityDb, SESSION_GONE } from '@/testing/mocks/security-handlers';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

const SESSIONS = '/api/me/sessions';

const section = () => screen.getByRole('region', { name: 'Thiết bị đang đăng nhập' });
const list = () => within(section()).getByRole('list', { name: 'Thiết bị đang đăng nhập' });
const items = () => within(list()).queryAllByRole('listitem');
const item = (name: string) => {
  const found = items().find((candidate) => candidate.textContent?.includes(name));
  if (!found) throw new Error(`no session of ${name}`);
  return found;
};
const signOutOthersButton = () =>
  within(section()).getByRole('button', { name: 'Đăng xuất khỏi tất cả thiết bị khác' });

async function openScreen() {
  const rendered = renderApp('/security', { user: true });
  await within(await screen.findByRole('region', { name: 'Thiết bị đang đăng nhập' })).findByRole('list');
  return rendered;
}

describe('active sessions', () => {
  it('says it is loading, then lists this device first, each with its browser, system, IP and last use', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.get(SESSIONS, async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return undefined;
      }),
    );
    renderApp('/security', { user: true });
    const sessions = await screen.findByRole('region', { name: 'Thiết bị đang đăng nhập' });
    expect(await within(sessions).findByRole('status')).toHaveTextContent('Đang tải danh sách thiết bị...');
    release();

    await within(sessions).findByRole('list');
    expect(items().map((entry) => within(entry).getByText(/ trên /).textContent)).toEqual([
      'Chrome trên Windows',
      'Safari trên iOS',
      'Firefox trên macOS',
    ]);
    const current = item('Chrome trên Windows');
    expect(within(current).getByText('Thiết bị này')).toBeInTheDocument();
    expect(current).toHaveTextContent('Địa chỉ IP: 203.113.130.1');
    expect(current).toHaveTextContent('Đang hoạt động');
    expect(within(current).queryByRole('button')).toBeNull();

    const iphone = item('Safari trên iOS');
    expect(within(iphone).queryByText('Thiết bị này')).toBeNull();
    expect(iphone).toHaveTextContent('Địa chỉ IP: 113.161.52.7');
    expect(iphone).toHaveTextContent(`Hoạt động lần cuối: ${formatDateTime('2026-11-21T03:30:00Z')}`);
    expect(within(iphone).getByRole('button', { name: 'Đăng xuất' })).toBeEnabled();
    expect(within(item('Firefox trên macOS')).getByRole('button', { name: 'Đăng xuất' })).toBeEnabled();
    expect(signOutOthersButton()).toBeEnabled();
  });

  it('lists the server order after this device, and names what it cannot recognise', async () => {
    securityDb.sessions = [
      buildSession({ userAgent: 'curl/8.5.0', lastSeenAt: null, createdAt: '2026-11-10T01:00:00Z' }),
      buildSession({ current: true }),
      buildSession({ userAgent: '', lastSeenAt: null, createdAt: null }),
    ];
    await openScreen();
    const [first, second, third] = items();
    expect(within(first!).getByText('Thiết bị này')).toBeInTheDocument();
    expect(second).toHaveTextContent('Thiết bị không xác định');
    // Without a last use the sign-in time stands in.
    expect(second).toHaveTextContent(`Hoạt động lần cuối: ${formatDateTime('2026-11-10T01:00:00Z')}`);
    expect(third).toHaveTextContent('Thiết bị không xác định');
    expect(third).not.toHaveTextContent('Hoạt động lần cuối');
  });

  it('signs out one other device after the CSRF cookie and drops it from the list', async () => {
    const { events } = await openScreen();
    const iphone = securityDb.sessions[1]!;

    await events.click(within(item('Safari trên iOS')).getByRole('button', { name: 'Đăng xuất' }));

    expect(await within(section()).findByRole('status')).toHaveTextContent('Đã đăng xuất khỏi Safari trên iOS.');
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(within(list()).queryByText('Safari trên iOS')).toBeNull();
    const deleteAt = db.requests.indexOf(`DELETE ${SESSIONS}/${iphone.id}`);
    expect(deleteAt).toBeGreaterThan(0);
    expect(db.requests[deleteAt - 1]).toBe('GET /api/auth/csrf-cookie');
    expect(securityDb.sessions.map((session) => session.id)).not.toContain(iphone.id);
    expect(db.signedIn).toBe(true);
  });

  it('says a device was already gone and refreshes the list', async () => {
    const { events } = await openScreen();
    // Signed out elsewhere meanwhile.
    securityDb.sessions = securityDb.sessions.filter((session) => !session.userAgent.includes('iPhone'));

    await events.click(within(item('Safari trên iOS')).getByRole('button', { name: 'Đăng xuất' }));

    expect(await within(section()).findByRole('alert')).toHaveTextContent(SESSION_GONE);
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(within(list()).queryByText('Safari trên iOS')).toBeNull();
  });

  it('shows the server message when a sign-out fails', async () => {
    server.use(
      http.delete(`${SESSIONS}/:id`, () => HttpResponse.json({ message: 'Máy chủ đang bảo trì.' }, { status: 503 })),
    );
    const { events } = await openScreen();
    await events.click(within(item('Firefox trên macOS')).getByRole('button', { name: 'Đăng xuất' }));

    const alert = await within(section()).findByRole('alert');
    expect(alert).toHaveTextContent('Đăng xuất không thành công');
    expect(alert).toHaveTextContent('Máy chủ đang bảo trì.');
    expect(items()).toHaveLength(3);
  });

  it('signs out every other device at once, then has nothing left to sign out', async () => {
    const { events } = await openScreen();
    await events.click(signOutOthersButton());

    expect(await within(section()).findByRole('status')).toHaveTextContent('Đã đăng xuất khỏi tất cả thiết bị khác.');
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(items()[0]).toHaveTextContent('Thiết bị này');
    expect(signOutOthersButton()).toBeDisabled();
    expect(db.requests.slice(-2)).toEqual(['GET /api/auth/csrf-cookie', `POST ${SESSIONS}/sign-out-others`]);
    expect(db.signedIn).toBe(true);
  });

  it('cannot sign out other devices when this is the only one', async () => {
    securityDb.sessions = securityDb.sessions.filter((session) => session.current);
    await openScreen();
    expect(items()).toHaveLength(1);
    expect(signOutOthersButton()).toBeDisabled();
    expect(
      within(section()).getByText('Không có thiết bị nào khác đang đăng nhập vào tài khoản của bạn.'),
    ).toBeInTheDocument();
  });

  it('offers to try again when the list cannot be loaded', async () => {
    let fail = true;
    server.use(
      http.get(SESSIONS, () => (fail ? HttpResponse.json({ message: 'Lỗi' }, { status: 500 }) : undefined)),
    );
    const { events } = renderApp('/security', { user: true });
    const sessions = await screen.findByRole('region', { name: 'Thiết bị đang đăng nhập' });
    expect(await within(sessions).findByText('Kết nối đến máy chủ bị gián đoạn, xin thử lại sau')).toBeInTheDocument();
    expect(within(sessions).queryByRole('list')).toBeNull();

    fail = false;
    await events.click(within(sessions).getByRole('button', { name: 'Thử lại' }));
    expect(await within(sessions).findByRole('list')).toBeInTheDocument();
    expect(items()).toHaveLength(3);
  });
});
