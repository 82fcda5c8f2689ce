import { beforeEach, describe, expect, it } from 'vitest';

import { signInStaff } from '@/testing/mocks/staff-handlers';
import { SUPPORT_PLAYER, supportConsoleDb } from '@/testing/mocks/staff-support-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { viewportWidth } from '@/testing/viewport';

const TICKET_ID = '0193f1c2-8f00-7000-8000-000000000001';
const TICKET_PAGE = `/staff/tickets/${TICKET_ID}`;

const calls = (prefix: string) => supportConsoleDb.calls.filter(({ call }) => call.startsWith(prefix));

beforeEach(() => viewportWidth(1280));

describe('the ticket queue', () => {
  it('lists every ticket with its player, category, subject, status and time, filtered by status in the URL', async () => {
    signInStaff('staff-viewer');
    const { events, router } = renderApp('/staff/tickets');

    const list = await screen.findByRole('list', { name: 'Danh sách yêu cầu hỗ trợ' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('nguyenvana');
    expect(rows[0]).toHaveTextContent('Nạp tiền chưa nhận được KP');
    expect(rows[0]).toHaveTextContent('Đang chờ hỗ trợ');
    expect(rows[0]).toHaveTextContent('Cập nhật 28/11/2026 08:00');
    expect(within(rows[0]!).getByRole('link', { name: 'Chuyển khoản chưa nhận được KP' })).toHaveAttribute('href', TICKET_PAGE);
    expect(rows[1]).toHaveTextContent('Nạp game chưa nhận được xu');
    expect(rows[1]).toHaveTextContent('Đã trả lời');

    const tabs = screen.getByRole('group', { name: 'Lọc theo trạng thái' });
    expect(within(tabs).getByRole('button', { name: 'Tất cả' })).toHaveAttribute('aria-pressed', 'true');
    await events.click(within(tabs).getByRole('button', { name: 'Đã trả lời' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Danh sách yêu cầu hỗ trợ' })).getAllByRole('listitem')).toHaveLength(1));
    expect(router.state.location.search).toBe('?status=answered');
    expect(calls('GET /api/staff/tickets?status=answered')).toHaveLength(1);

    await events.click(within(tabs).getByRole('button', { name: 'Đã đóng' }));
    expect(await screen.findByText('Không có yêu cầu nào ở trạng thái này.')).toBeInTheDocument();
  });
});

describe('a ticket', () => {
  it("shows the conversation with the player's image and links to the player and the transaction; a viewer cannot reply", async () => {
    signInStaff('staff-viewer');
    renderApp(TICKET_PAGE);

    expect(await screen.findByRole('heading', { level: 1, name: 'Chuyển khoản chưa nhận được KP' })).toBeInTheDocument();
    expect(screen.getByTestId('ticket-status')).toHaveTextContent('Đang chờ hỗ trợ');
    expect(screen.getByRole('link', { name: 'nguyenvana' })).toHaveAttribute('href', `/staff/players/${SUPPORT_PLAYER.id}`);
    expect(screen.getByRole('link', { name: 'Xem trong sổ giao dịch' })).toHaveAttribute(
      'href',
      `/staff/players/${SUPPORT_PLAYER.id}?transaction=0193f1c2-8d00-7000-8000-000000000001`,
    );
    const conversation = screen.getByRole('list', { name: 'Trao đổi' });
    const [message] = within(conversation).getAllByRole('listitem');
    expect(message).toHaveTextContent('nguyenvana (người chơi)');
    expect(message).toHaveTextContent('Em chuyển 100.000 VND lúc 8 giờ sáng mà chưa thấy KP.');
    expect(within(message!).getByRole('img', { name: 'Ảnh người chơi gửi kèm' })).toHaveAttribute(
      'src',
      '/api/staff/attachments/0193f1c2-9000-7000-8000-000000000001',
    );

    expect(screen.queryByRole('form', { name: 'Trả lời người chơi' })).toBeNull();
    expect(screen.getByText('Chỉ vai trò Hỗ trợ trả lời được yêu cầu; bạn chỉ xem.')).toBeInTheDocument();
  });

  it('lets support reply, requiring a text, and close the ticket with the reply', async () => {
    signInStaff('staff-support');
    const { events } = renderApp(TICKET_PAGE);
    const form = await screen.findByRole('form', { name: 'Trả lời người chơi' });

    await events.click(within(form).getByRole('button', { name: 'Gửi trả lời' }));
    expect(await within(form).findByText('Hãy nhập nội dung trả lời.')).toBeInTheDocument();
    expect(calls('POST')).toHaveLength(0);

    await events.type(within(form).getByRole('textbox', { name: /Nội dung trả lời/ }), 'Bên mình đã ghi có 100.000 KP cho bạn.');
    await events.click(within(form).getByRole('button', { name: 'Gửi và đóng yêu cầu' }));

    expect(await screen.findByText('Đã gửi trả lời và đóng yêu cầu.')).toBeInTheDocument();
    expect(calls(`POST /api/staff/tickets/${TICKET_ID}/reply`).map(({ body }) => body)).toEqual([
      { body: 'Bên mình đã ghi có 100.000 KP cho bạn.', close: true },
    ]);
    const messages = within(screen.getByRole('list', { name: 'Trao đổi' })).getAllByRole('listitem');
    expect(messages).toHaveLength(2);
    expect(messages[1]).toHaveTextContent('staff-support (hỗ trợ)');
    expect(messages[1]).toHaveTextContent('Bên mình đã ghi có 100.000 KP cho bạn.');
    expect(screen.getByTestId('ticket-status')).toHaveTextContent('Đã đóng');
    // The form is empty again, for another reply.
    expect(within(form).getByRole('textbox', { name: /Nội dung trả lời/ })).toHaveValue('');
  });

  it("names support's replies by their member, or by the role when the answer names none", async () => {
    const answered = supportConsoleDb.tickets[1]!;
    answered.messages.push({
      id: 'message-4',
      author: 'support',
      body: 'Game đã nhận lại đơn.',
      attachmentId: '',
      createdAt: '2026-11-27T06:00:00Z',
    });
    signInStaff('staff-viewer');
    renderApp(`/staff/tickets/${answered.ticket.id}`);

    const conversation = await screen.findByRole('list', { name: 'Trao đổi' });
    const messages = within(conversation).getAllByRole('listitem');
    expect(messages).toHaveLength(3);
    expect(messages[0]).toHaveTextContent('nguyenvanb (người chơi)');
    expect(messages[1]).toHaveTextContent('staff-support (hỗ trợ)');
    expect(messages[1]).toHaveAttribute('data-author', 'support');
    expect(within(messages[2]!).getByText('Hỗ trợ')).toBeInTheDocument();
    expect(messages[2]).toHaveAttribute('data-author', 'support');
  });

  it('says when there is no such ticket', async () => {
    signInStaff('staff-support');
    renderApp('/staff/tickets/0193f1c2-0000-7000-8000-00000000dead');
    expect(await screen.findByRole('heading', { name: 'Không tìm thấy yêu cầu hỗ trợ.' })).toBeInTheDocument();
  });
});
