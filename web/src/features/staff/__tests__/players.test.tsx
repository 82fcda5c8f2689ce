import { beforeEach, describe, expect, it } from 'vitest';

import { STAFF_FORBIDDEN, STAFF_PASSWORD, signInStaff, staffDb } from '@/testing/mocks/staff-handlers';
import {
  LOCKED_PLAYER,
  SUPPORT_PLAYER,
  supportConsoleDb,
} from '@/testing/mocks/staff-support-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { viewportWidth } from '@/testing/viewport';

const PLAYER_PAGE = `/staff/players/${SUPPORT_PLAYER.id}`;
const ORDER_ID = '0193f1c2-8e00-7000-8000-000000000001';

const calls = (prefix: string) => supportConsoleDb.calls.filter(({ call }) => call.startsWith(prefix));
const region = (name: string) => screen.getByRole('region', { name });

async function openPlayerPage(role: string, url = PLAYER_PAGE) {
  signInStaff(role);
  const rendered = renderApp(url);
  expect(await screen.findByRole('heading', { level: 1, name: SUPPORT_PLAYER.username })).toBeInTheDocument();
  return rendered;
}

beforeEach(() => viewportWidth(1280));

describe('player look-up', () => {
  it('finds players by the start of a username, keeps the query in the URL and links each to their page', async () => {
    signInStaff('staff-viewer');
    const { events, router } = renderApp('/staff/players');

    expect(await screen.findByRole('heading', { level: 1, name: 'Tra cứu người chơi' })).toBeInTheDocument();
    expect(screen.getByText('Nhập một trong các thông tin trên rồi bấm Tìm.')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Tìm' }));
    expect(await screen.findByText('Hãy nhập điều cần tìm.')).toBeInTheDocument();

    await events.type(screen.getByRole('searchbox', { name: 'Tìm người chơi' }), 'nguyenvan');
    await events.click(screen.getByRole('button', { name: 'Tìm' }));

    const results = await screen.findByRole('list', { name: 'Kết quả tìm kiếm' });
    expect(router.state.location.search).toBe('?q=nguyenvan');
    expect(calls('GET /api/staff/players?q=nguyenvan')).toHaveLength(1);
    const rows = within(results).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(screen.getByText('2 người chơi khớp với “nguyenvan” (tối đa 20).')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('link', { name: 'nguyenvana' })).toHaveAttribute('href', PLAYER_PAGE);
    expect(rows[0]).toHaveTextContent('0912345678');
    expect(rows[1]).toHaveTextContent('Đã khóa');
    expect(rows[1]).toHaveTextContent('Đã đóng tài khoản');

    await events.click(within(rows[0]!).getByRole('link', { name: 'nguyenvana' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'nguyenvana' })).toBeInTheDocument();
  });

  it('opens with the query of the URL in the field, and says when nobody matches', async () => {
    signInStaff('staff-support');
    const { events } = renderApp('/staff/players?q=0912345678');
    const results = await screen.findByRole('list', { name: 'Kết quả tìm kiếm' });
    expect(within(results).getAllByRole('listitem')).toHaveLength(1);
    const field = screen.getByRole('searchbox', { name: 'Tìm người chơi' });
    expect(field).toHaveValue('0912345678');

    await events.clear(field);
    await events.type(field, 'khongaica{Enter}');
    expect(await screen.findByText('Không có người chơi nào khớp với “khongaica”.')).toBeInTheDocument();
  });
});

describe("a player's page", () => {
  it('shows the profile, wallet, orders, ledger, adjustments, tickets, sessions and sign-ins', async () => {
    await openPlayerPage('staff-viewer');

    const profile = region('Tài khoản');
    expect(profile).toHaveTextContent('nguyenvana@example.com');
    expect(profile).toHaveTextContent('0912345678');
    expect(profile).toHaveTextContent(SUPPORT_PLAYER.id);
    expect(profile).toHaveTextContent('01/10/2026 09:00');
    expect(profile).toHaveTextContent('Không bị khóa');
    expect(profile).toHaveTextContent('Chưa đóng');

    const wallet = region('Ví KP');
    expect(within(wallet).getByTestId('player-balance')).toHaveTextContent('565.000 KP');
    expect(wallet).toHaveTextContent('Có, thưởng 2,5%');
    expect(wallet).toHaveTextContent('2.500.000 VND');

    const orders = within(region('Đơn nạp game')).getAllByRole('listitem');
    expect(orders).toHaveLength(2);
    expect(orders[0]).toHaveTextContent('1.000 xu');
    expect(orders[0]).toHaveTextContent('thưởng +150 xu');
    expect(orders[0]).toHaveTextContent('fsonline · máy chủ 97');
    expect(orders[0]).toHaveTextContent('Chờ game giao xu');
    expect(orders[1]).toHaveTextContent('Đã giao xu');

    const ledger = within(region('Sổ giao dịch')).getByRole('list', { name: 'Sổ giao dịch' });
    expect(within(ledger).getAllByRole('listitem')).toHaveLength(100);
    expect(within(ledger).getAllByRole('listitem')[0]).toHaveTextContent('Nạp KP qua ngân hàng');
    expect(within(ledger).getAllByRole('listitem')[0]).toHaveTextContent('100.000 VND');

    const adjustments = region('Điều chỉnh KP');
    expect(adjustments).toHaveTextContent('+50.000 KP');
    expect(adjustments).toHaveTextContent('Bồi hoàn sự cố nạp thẻ');
    expect(adjustments).toHaveTextContent('Đã áp dụng');

    const tickets = region('Yêu cầu hỗ trợ');
    expect(within(tickets).getByRole('link', { name: 'Chuyển khoản chưa nhận được KP' })).toHaveAttribute(
      'href',
      '/staff/tickets/0193f1c2-8f00-7000-8000-000000000001',
    );
    expect(tickets).toHaveTextContent('Nạp tiền chưa nhận được KP');
    expect(tickets).toHaveTextContent('Đang chờ hỗ trợ');

    const sessions = region('Phiên đăng nhập');
    expect(sessions).toHaveTextContent('IP 113.161.52.7');
    expect(sessions).toHaveTextContent('Ghi nhớ đăng nhập');
    const signIns = within(region('Lịch sử đăng nhập')).getAllByRole('listitem');
    expect(signIns[0]).toHaveTextContent('Thành công');
    expect(signIns[1]).toHaveTextContent('Không thành công: Sai mật khẩu');
  });

  it('shows a viewer and an admin no action, and says so', async () => {
    for (const role of ['staff-viewer', 'staff-admin']) {
      const { unmount } = await openPlayerPage(role);
      expect(screen.getByText('Bạn chỉ xem được thông tin; vai trò của bạn không có thao tác nào với người chơi.')).toBeInTheDocument();
      for (const name of ['Khóa tài khoản', 'Gửi lại cho game', 'Hoàn KP', 'Đăng xuất mọi phiên']) {
        expect(screen.queryByRole('button', { name })).toBeNull();
      }
      expect(within(screen.getByRole('main')).queryByRole('link', { name: 'Điều chỉnh KP' })).toBeNull();
      unmount();
    }
  });

  it('offers support resend, lock and sessions but not refund; finance refund and adjustments only', async () => {
    const support = await openPlayerPage('staff-support');
    expect(screen.getByRole('button', { name: 'Gửi lại cho game' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Khóa tài khoản' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Đăng xuất mọi phiên' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Hoàn KP' })).toBeNull();
    expect(within(screen.getByRole('main')).queryByRole('link', { name: 'Điều chỉnh KP' })).toBeNull();
    // Only the order still waiting for the game has actions.
    expect(screen.getAllByRole('group', { name: /^Thao tác với đơn/ })).toHaveLength(1);
    support.unmount();

    await openPlayerPage('staff-finance');
    expect(screen.getByRole('button', { name: 'Hoàn KP' })).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Điều chỉnh KP' })).toHaveAttribute('href', '/staff/adjustments?player=nguyenvana');
    for (const name of ['Gửi lại cho game', 'Khóa tài khoản', 'Đăng xuất mọi phiên']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
  });

  it('lets support resend an order awaiting delivery; the page is read again and the button goes', async () => {
    const { events } = await openPlayerPage('staff-support');
    const before = calls(`GET /api/staff/players/${SUPPORT_PLAYER.id}`).length;
    await events.click(screen.getByRole('button', { name: 'Gửi lại cho game' }));

    expect(await screen.findByText('Đã gửi lại đơn cho game. Trạng thái cập nhật khi game xác nhận đã giao.')).toBeInTheDocument();
    expect(calls(`POST /api/staff/orders/${ORDER_ID}/resend`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Gửi lại cho game' })).toBeNull());
    expect(within(region('Đơn nạp game')).getAllByText('Đã giao xu')).toHaveLength(2);
    expect(calls(`GET /api/staff/players/${SUPPORT_PLAYER.id}`).length).toBeGreaterThan(before);
  });

  it("shows the server's refusal of a resend in a toast", async () => {
    const { events } = await openPlayerPage('staff-support');
    // Another member's role changed meanwhile: the server refuses.
    staffDb.members = staffDb.members.map((member) => (member.username === 'staff-support' ? { ...member, role: 'viewer' } : member));
    await events.click(screen.getByRole('button', { name: 'Gửi lại cho game' }));
    expect(await screen.findByText(STAFF_FORBIDDEN)).toBeInTheDocument();
    expect(screen.getByText('Không gửi lại được đơn')).toBeInTheDocument();
  });

  it('lets finance refund an order with a required reason, re-authenticating first', async () => {
    const { events } = await openPlayerPage('staff-finance');
    await events.click(screen.getByRole('button', { name: 'Hoàn KP' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Hoàn KP cho đơn nạp game' });
    expect(dialog).toHaveTextContent('Đơn 1.000 xu chuyển sang thất bại và 100.000 KP được hoàn lại');

    await events.click(within(dialog).getByRole('button', { name: 'Hoàn KP' }));
    expect(await within(dialog).findByText('Hãy nhập lý do.')).toBeInTheDocument();
    expect(calls('POST /api/staff/orders')).toHaveLength(0);

    await events.type(within(dialog).getByRole('textbox', { name: /Lý do/ }), 'Game xác nhận không nhận được đơn');
    await events.click(within(dialog).getByRole('button', { name: 'Hoàn KP' }));

    // More than five minutes after signing in: the console asks for the password first.
    const reauth = await screen.findByRole('dialog', { name: 'Xác thực lại' });
    await events.type(within(reauth).getByLabelText(/Mật khẩu hoặc mã xác thực/, { selector: 'input' }), STAFF_PASSWORD);
    await events.click(within(reauth).getByRole('button', { name: 'Xác nhận' }));

    expect(await screen.findByText('Đã hoàn 100.000 KP cho nguyenvana.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog', { name: 'Hoàn KP cho đơn nạp game' })).toBeNull());
    expect(calls(`POST /api/staff/orders/${ORDER_ID}/refund`).map(({ body }) => body)).toEqual([
      { reason: 'Game xác nhận không nhận được đơn' },
      { reason: 'Game xác nhận không nhận được đơn' },
    ]);
    await waitFor(() => expect(within(region('Ví KP')).getByTestId('player-balance')).toHaveTextContent('665.000 KP'));
    expect(region('Đơn nạp game')).toHaveTextContent('Thất bại, đã hoàn KP');
    expect(screen.queryByRole('button', { name: 'Hoàn KP' })).toBeNull();
  });

  it('lets support lock the account with a reason and unlock it', async () => {
    const { events } = await openPlayerPage('staff-support');
    await events.click(screen.getByRole('button', { name: 'Khóa tài khoản' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Khóa tài khoản nguyenvana' });
    await events.click(within(dialog).getByRole('button', { name: 'Khóa tài khoản' }));
    expect(await within(dialog).findByText('Hãy nhập lý do.')).toBeInTheDocument();

    await events.type(within(dialog).getByRole('textbox', { name: /Lý do/ }), 'Người chơi báo mất tài khoản');
    await events.click(within(dialog).getByRole('button', { name: 'Khóa tài khoản' }));
    expect(await screen.findByText('Đã khóa tài khoản nguyenvana.')).toBeInTheDocument();
    expect(calls(`POST /api/staff/players/${SUPPORT_PLAYER.id}/lock`).map(({ body }) => body)).toEqual([
      { reason: 'Người chơi báo mất tài khoản' },
    ]);
    const profile = region('Tài khoản');
    await waitFor(() => expect(within(profile).getByTestId('player-lock')).toHaveTextContent('Bị khóa lúc 28/11/2026 11:00'));
    expect(profile).toHaveTextContent('Lý do: Người chơi báo mất tài khoản');
    // Locking ended the sessions too.
    expect(region('Phiên đăng nhập')).toHaveTextContent('Người chơi không đăng nhập trên thiết bị nào.');

    await events.click(within(profile).getByRole('button', { name: 'Mở khóa tài khoản' }));
    const unlock = await screen.findByRole('dialog', { name: 'Mở khóa tài khoản nguyenvana?' });
    await events.click(within(unlock).getByRole('button', { name: 'Mở khóa' }));
    expect(await screen.findByText('Đã mở khóa tài khoản nguyenvana.')).toBeInTheDocument();
    await waitFor(() => expect(within(profile).getByTestId('player-lock')).toHaveTextContent('Không bị khóa'));
  });

  it('ends every session of the player after a confirmation', async () => {
    const { events } = await openPlayerPage('staff-support');
    await events.click(screen.getByRole('button', { name: 'Đăng xuất mọi phiên' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Đăng xuất mọi phiên của nguyenvana?' });
    await events.click(within(dialog).getByRole('button', { name: 'Đăng xuất mọi phiên' }));
    expect(await screen.findByText('Đã đăng xuất mọi phiên của nguyenvana.')).toBeInTheDocument();
    expect(calls(`POST /api/staff/players/${SUPPORT_PLAYER.id}/sessions/revoke`)).toHaveLength(1);
    await waitFor(() => expect(region('Phiên đăng nhập')).toHaveTextContent('Người chơi không đăng nhập trên thiết bị nào.'));
    expect(screen.queryByRole('button', { name: 'Đăng xuất mọi phiên' })).toBeNull();
  });

  it("pages through the ledger from the first 100 with 'Xem thêm'", async () => {
    const { events } = await openPlayerPage('staff-viewer');
    const section = region('Sổ giao dịch');
    expect(within(section).getByRole('status')).toHaveTextContent('Đang hiển thị 100 giao dịch mới nhất.');

    await events.click(within(section).getByRole('button', { name: 'Xem thêm' }));
    await waitFor(() => expect(within(section).getByRole('status')).toHaveTextContent('Đã hiển thị tất cả 130 giao dịch.'));
    expect(within(section).getAllByRole('listitem')).toHaveLength(130);
    expect(within(section).queryByRole('button', { name: 'Xem thêm' })).toBeNull();
    expect(calls(`GET /api/staff/players/${SUPPORT_PLAYER.id}/ledger`).map(({ call }) => call)).toEqual([
      `GET /api/staff/players/${SUPPORT_PLAYER.id}/ledger?cursor=cursor-0&limit=100`,
    ]);
  });

  it('points out the transaction a ticket links to', async () => {
    await openPlayerPage('staff-viewer', `${PLAYER_PAGE}?transaction=0193f1c2-8d00-7000-8000-000000000003`);
    const asked = screen.getByText('Giao dịch được hỏi đến').closest('li');
    expect(asked).toHaveAttribute('data-transaction', '0193f1c2-8d00-7000-8000-000000000003');
  });

  it('shows a locked and closed account, and says when there is no such player', async () => {
    signInStaff('staff-support');
    const { unmount } = renderApp(`/staff/players/${LOCKED_PLAYER.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: LOCKED_PLAYER.username })).toBeInTheDocument();
    expect(within(region('Tài khoản')).getByTestId('player-lock')).toHaveTextContent('Bị khóa lúc 02/11/2026 09:00');
    expect(region('Tài khoản')).toHaveTextContent('Lý do: Nghi bị chiếm tài khoản');
    expect(screen.getByRole('button', { name: 'Mở khóa tài khoản' })).toBeInTheDocument();
    expect(region('Đơn nạp game')).toHaveTextContent('Người chơi chưa có đơn nạp game nào.');
    unmount();

    renderApp('/staff/players/0193f1c2-0000-7000-8000-00000000dead');
    expect(await screen.findByRole('heading', { name: 'Không tìm thấy người chơi.' })).toBeInTheDocument();
  });
});
