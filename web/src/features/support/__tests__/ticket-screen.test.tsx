import { describe, expect, it } from 'vitest';

import { formatDateTime } from '@/lib/format';
import { db } from '@/testing/mocks/db';
import { staffDb } from '@/testing/mocks/staff-handlers';
import {
  addTicket,
  buildMessage,
  buildTicket,
  PNG_BYTES,
  supportDb,
  TICKET_ATTACHMENT_TYPE,
} from '@/testing/mocks/support-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

const answerInput = () => screen.getByRole('textbox', { name: /^Trả lời/ });
const sendButton = () => screen.getByRole('button', { name: 'Gửi trả lời' });
const conversation = () => screen.getByRole('list', { name: 'Trao đổi' });
const messages = () => within(conversation()).getAllByRole('listitem');

/** A ticket the player opened with an image, which support answered. */
function answeredTicket(status = 'answered') {
  return addTicket(
    buildTicket({
      subject: 'Chuyển khoản chưa nhận KP',
      category: 'topup_missing',
      transactionId: 'tx-topup',
      status,
      createdAt: '2026-11-20T09:00:00Z',
    }),
    [
      buildMessage({ body: 'Tôi đã chuyển 500,000 VND.\nẢnh chụp màn hình kèm theo.', attachmentId: 'att-1', createdAt: '2026-11-20T09:00:00Z' }),
      buildMessage({ author: 'support', body: 'Chúng tôi đã cộng KP cho bạn.', createdAt: '2026-11-20T10:00:00Z' }),
    ],
  );
}

async function openTicket(id: string) {
  const rendered = renderApp(`/support/tickets/${id}`, { user: true });
  await screen.findByRole('list', { name: 'Trao đổi' });
  return rendered;
}

describe('a ticket page', () => {
  it('shows the conversation: the player and support, with the image and the status', async () => {
    const ticket = answeredTicket();
    await openTicket(ticket.id);

    expect(screen.getByRole('heading', { level: 1, name: 'Chuyển khoản chưa nhận KP' })).toBeInTheDocument();
    expect(screen.getByText('Đã trả lời')).toBeInTheDocument();
    expect(screen.getByText(/Nạp tiền chưa nhận được KP/)).toBeInTheDocument();
    expect(screen.getByText('tx-topup')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Xem biên lai' })).toHaveAttribute('href', '/transactions/tx-topup');
    expect(screen.getByRole('link', { name: 'Yêu cầu của tôi' })).toHaveAttribute('href', '/support');

    const [fromPlayer, fromSupport] = messages() as [HTMLElement, HTMLElement];
    expect(messages()).toHaveLength(2);
    expect(within(fromPlayer).getByText('Bạn')).toBeInTheDocument();
    expect(within(fromPlayer).getByText(/Tôi đã chuyển 500,000 VND\./)).toHaveTextContent(
      'Tôi đã chuyển 500,000 VND. Ảnh chụp màn hình kèm theo.',
    );
    expect(within(fromPlayer).getByText(formatDateTime('2026-11-20T09:00:00Z'))).toBeInTheDocument();
    const image = within(fromPlayer).getByRole('img', { name: 'Ảnh đính kèm' });
    expect(image).toHaveAttribute('src', '/api/support/attachments/att-1');
    expect(image.closest('a')).toHaveAttribute('href', '/api/support/attachments/att-1');

    expect(within(fromSupport).getByText('Bộ phận hỗ trợ')).toBeInTheDocument();
    expect(within(fromSupport).queryByText('staff-support')).not.toBeInTheDocument();
    expect(within(fromSupport).getByText('Chúng tôi đã cộng KP cho bạn.')).toBeInTheDocument();
    expect(within(fromSupport).queryByRole('img')).not.toBeInTheDocument();
    expect(fromPlayer).toHaveAttribute('data-author', 'player');
    expect(fromSupport).toHaveAttribute('data-author', 'support');
  });

  it("shows support's reply by its role and names no staff member anywhere on the page", async () => {
    const ticket = answeredTicket();
    await openTicket(ticket.id);

    const fromSupport = messages()[1]!;
    expect(fromSupport).toHaveAttribute('data-author', 'support');
    expect(within(fromSupport).getByText('Bộ phận hỗ trợ')).toBeInTheDocument();
    expect(within(fromSupport).getByText('Chúng tôi đã cộng KP cho bạn.')).toBeInTheDocument();
    expect(staffDb.members.length).toBeGreaterThan(0);
    for (const { username } of staffDb.members) expect(document.body).not.toHaveTextContent(username);
  });

  it('sends an answer with an image; the ticket waits for support again', async () => {
    const ticket = answeredTicket();
    const { events } = await openTicket(ticket.id);
    await events.type(answerInput(), 'Tôi vẫn chưa nhận được.');
    await events.upload(screen.getByLabelText(/^Ảnh đính kèm/), new File([PNG_BYTES], 'anh.png', { type: 'image/png' }));
    await events.click(sendButton());

    await waitFor(() => expect(messages()).toHaveLength(3));
    const answer = messages()[2]!;
    expect(within(answer).getByText('Bạn')).toBeInTheDocument();
    expect(within(answer).getByText('Tôi vẫn chưa nhận được.')).toBeInTheDocument();
    expect(within(answer).getByRole('img', { name: 'Ảnh đính kèm' })).toBeInTheDocument();
    expect(screen.getByText('Đang chờ hỗ trợ')).toBeInTheDocument();
    expect(supportDb.answers).toHaveLength(1);
    expect(supportDb.answers[0]?.body).toBe('Tôi vẫn chưa nhận được.');
    expect(supportDb.answers[0]?.attachment).toMatch(new RegExp(`\\|image/png\\|${PNG_BYTES.length}$`));
    expect(answerInput()).toHaveValue('');
  });

  it('asks for the answer, and puts the refusal of a file that is no image beside it', async () => {
    const ticket = answeredTicket();
    const { events } = await openTicket(ticket.id);
    await events.click(sendButton());
    expect(await screen.findByText('Vui lòng mô tả vấn đề của bạn')).toBeInTheDocument();
    expect(supportDb.answers).toEqual([]);

    await events.type(answerInput(), 'Ảnh đây.');
    await events.upload(screen.getByLabelText(/^Ảnh đính kèm/), new File(['văn bản'], 'anh.png', { type: 'image/png' }));
    await events.click(sendButton());
    expect(await screen.findByText(TICKET_ATTACHMENT_TYPE)).toBeInTheDocument();
    expect(messages()).toHaveLength(2);
  });

  it('refuses an image over 5 MB before sending', async () => {
    const ticket = answeredTicket();
    const { events } = await openTicket(ticket.id);
    await events.type(answerInput(), 'Ảnh lớn.');
    await events.upload(
      screen.getByLabelText(/^Ảnh đính kèm/),
      new File([new Uint8Array(6 * 1024 * 1024)], 'lon.jpg', { type: 'image/jpeg' }),
    );
    expect(await screen.findByText('Ảnh đính kèm tối đa 5 MB')).toBeInTheDocument();
    await events.click(sendButton());
    expect(supportDb.answers).toEqual([]);
  });

  it('shows a closed ticket without the answer form', async () => {
    const ticket = answeredTicket('closed');
    await openTicket(ticket.id);
    expect(screen.getByText('Đã đóng')).toBeInTheDocument();
    expect(screen.getByText('Yêu cầu này đã đóng. Nếu bạn cần hỗ trợ thêm, hãy tạo yêu cầu mới.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Gửi trả lời' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Chọn ảnh' })).not.toBeInTheDocument();
  });

  it('says so when the ticket was closed meanwhile, and then drops the form', async () => {
    const ticket = answeredTicket();
    const { events } = await openTicket(ticket.id);
    ticket.status = 'closed';
    await events.type(answerInput(), 'Còn một việc nữa.');
    await events.click(sendButton());
    expect(await screen.findByText('Yêu cầu này đã đóng. Nếu bạn cần hỗ trợ thêm, hãy tạo yêu cầu mới.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Gửi trả lời' })).not.toBeInTheDocument();
    expect(supportDb.answers).toHaveLength(1);
  });

  it('says that a ticket of no one of theirs was not found', async () => {
    renderApp('/support/tickets/0194a000-0000-7000-8000-000000000999', { user: true });
    expect(await screen.findByRole('heading', { name: 'Không tìm thấy yêu cầu hỗ trợ.' })).toBeInTheDocument();
    for (const link of screen.getAllByRole('link', { name: 'Yêu cầu của tôi' })) expect(link).toHaveAttribute('href', '/support');
    expect(screen.queryByRole('button', { name: 'Gửi trả lời' })).not.toBeInTheDocument();
    expect(db.requests).toContain('GET /api/support/tickets/0194a000-0000-7000-8000-000000000999');
  });

  it('opens from the list', async () => {
    const ticket = answeredTicket();
    const { events, router } = renderApp('/support', { user: true });
    await events.click(await screen.findByRole('link', { name: /Chuyển khoản chưa nhận KP/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Chuyển khoản chưa nhận KP' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/support/tickets/${ticket.id}`);
  });
});
