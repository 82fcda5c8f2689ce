import { describe, expect, it } from 'vitest';

import { buildTransaction } from '@/testing/data';
import { http, validationError } from '@/testing/mocks/common';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import {
  addTicket,
  buildTicket,
  PNG_BYTES,
  supportDb,
  TICKET_ATTACHMENT_TYPE,
  TICKET_BODY_LONG,
  TICKET_CATEGORY_INVALID,
  TICKET_SUBJECT_REQUIRED,
  TICKET_TRANSACTION_UNKNOWN,
  TICKETS_PER_DAY,
  TOO_MANY_TICKETS,
} from '@/testing/mocks/support-handlers';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';

const SPEC_TEXTS = [
  'Trung tâm hỗ trợ đang trong quá trình phát triển.',
  'Trong thời gian này, bạn vui lòng liên hệ với chúng tôi qua Messenger của fanpage.',
];

const form = () => within(screen.getByRole('region', { name: 'Tạo yêu cầu hỗ trợ' }));
const categorySelect = () => form().getByRole('combobox', { name: /^Loại yêu cầu/ });
const subjectInput = () => form().getByRole('textbox', { name: /^Tiêu đề/ });
const bodyInput = () => form().getByRole('textbox', { name: /^Mô tả/ });
const transactionSelect = () => form().getByRole('combobox', { name: /^Giao dịch liên quan/ });
const attachmentInput = () => form().getByLabelText<HTMLInputElement>(/^Ảnh đính kèm/);
const submit = () => form().getByRole('button', { name: 'Gửi yêu cầu' });
const ticketRequests = () => db.requests.filter((request) => request === 'POST /api/support/tickets');

const png = (name = 'hoa-don.png') => new File([PNG_BYTES], name, { type: 'image/png' });

/** Opens /support signed in and waits for the form and the list. */
async function openSupport() {
  const rendered = renderApp('/support', { user: true });
  await screen.findByRole('region', { name: 'Tạo yêu cầu hỗ trợ' });
  return rendered;
}

type Events = Awaited<ReturnType<typeof openSupport>>['events'];

async function fillTicket(events: Events, { category = 'Nạp tiền chưa nhận được KP', subject = 'Chưa nhận KP', body = 'Tôi đã chuyển khoản lúc 10 giờ.' } = {}) {
  await events.selectOptions(categorySelect(), category);
  await events.type(subjectInput(), subject);
  await events.type(bodyInput(), body);
}

describe('/support for a visitor', () => {
  it('shows only the spec page: in development, and the messenger link', async () => {
    renderApp('/support');
    expect(await screen.findByText(SPEC_TEXTS[0]!)).toBeInTheDocument();
    expect(screen.getByText(SPEC_TEXTS[1]!)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Nhắn tin qua Messenger' })).toHaveAttribute('href', 'https://m.me/kid.example');
    expect(screen.getByRole('heading', { level: 1, name: 'Hỗ trợ' })).toBeInTheDocument();

    expect(screen.queryByRole('heading', { name: 'Tạo yêu cầu hỗ trợ' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Yêu cầu của tôi' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(db.requests.filter((request) => /support|transactions/.test(request))).toEqual([]);
  });

  it('sends a visitor on a ticket page to sign in, and back', async () => {
    const { fullNavigations } = renderApp('/support/tickets/abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(fullNavigations).toEqual([`/login?next_uri=${encodeURIComponent('/support/tickets/abc')}`]);
  });

  it.each(['/support/elsewhere', '/support/tickets'])('takes %s to the support page', async (url) => {
    const { router } = renderApp(url);
    expect(await screen.findByText(SPEC_TEXTS[0]!)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/support');
  });
});

describe('/support for a signed-in player', () => {
  it('keeps the spec page above the ticket centre, with no ticket yet', async () => {
    await openSupport();
    for (const text of SPEC_TEXTS) expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Nhắn tin qua Messenger' })).toBeInTheDocument();
    const list = within(screen.getByRole('region', { name: 'Yêu cầu của tôi' }));
    expect(await list.findByText('Bạn chưa có yêu cầu hỗ trợ nào.')).toBeInTheDocument();
  });

  it("lists the player's tickets, newest activity first, with their status", async () => {
    addTicket(buildTicket({ subject: 'Cũ nhất', status: 'closed', category: 'account', updatedAt: '2026-11-01T09:00:00Z' }));
    addTicket(buildTicket({ subject: 'Mới nhất', status: 'answered', category: 'coin_missing', updatedAt: '2026-11-21T09:00:00Z' }));
    addTicket(buildTicket({ subject: 'Ở giữa', status: 'open', category: 'other', updatedAt: '2026-11-10T09:00:00Z' }));
    supportDb.tickets.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
    await openSupport();

    const list = await screen.findByRole('list', { name: 'Yêu cầu của tôi' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual([
      expect.stringContaining('Mới nhất'),
      expect.stringContaining('Ở giữa'),
      expect.stringContaining('Cũ nhất'),
    ]);
    expect(within(items[0]!).getByText('Đã trả lời')).toBeInTheDocument();
    expect(within(items[0]!).getByText(/Nạp game chưa nhận được xu/)).toBeInTheDocument();
    expect(within(items[1]!).getByText('Đang chờ hỗ trợ')).toBeInTheDocument();
    expect(within(items[1]!).getByText(/Khác/)).toBeInTheDocument();
    expect(within(items[2]!).getByText('Đã đóng')).toBeInTheDocument();
    expect(within(items[2]!).getByText(/Tài khoản/)).toBeInTheDocument();
    expect(within(items[0]!).getByRole('link')).toHaveAttribute('href', `/support/tickets/${supportDb.tickets[0]!.id}`);
  });

  it('offers the four categories and the latest transactions as the history shows them', async () => {
    db.transactions = [
      buildTransaction({ id: 'tx-topup', type: 'topup.bank-transfer', realValue: 500000, updatedAt: new Date(2026, 10, 22, 17, 0).toISOString() }),
      buildTransaction({
        id: 'tx-gift',
        type: 'giftcode',
        currency: 'KP',
        realValue: 1000,
        updatedAt: new Date(2026, 10, 21, 8, 30).toISOString(),
        payload: { campaign: 'Chào mừng tân thủ' },
      }),
    ];
    await openSupport();
    expect(within(categorySelect()).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Chọn loại yêu cầu',
      'Nạp tiền chưa nhận được KP',
      'Nạp game chưa nhận được xu',
      'Tài khoản',
      'Khác',
    ]);
    await waitFor(() => expect(within(transactionSelect()).getAllByRole('option')).toHaveLength(3));
    expect(within(transactionSelect()).getAllByRole('option').map((option) => [option.getAttribute('value'), option.textContent])).toEqual([
      ['', 'Không chọn giao dịch'],
      ['tx-topup', 'Nạp KP · 500,000 VND · 22/11/2026 17:00'],
      ['tx-gift', 'Nhận quà giftcode · +1,000 KP · 21/11/2026 08:30'],
    ]);
    expect(db.requests).toContain('GET /api/transactions');
  });

  it('says what is missing and sends nothing', async () => {
    const { events } = await openSupport();
    await events.click(submit());
    expect(await form().findByText('Vui lòng chọn loại yêu cầu')).toBeInTheDocument();
    expect(form().getByText('Vui lòng nhập tiêu đề')).toBeInTheDocument();
    expect(form().getByText('Vui lòng mô tả vấn đề của bạn')).toBeInTheDocument();
    expect(categorySelect()).toHaveFocus();

    await events.type(subjectInput(), 'x'.repeat(121));
    await events.click(submit());
    expect(await form().findByText('Tiêu đề tối đa 120 ký tự')).toBeInTheDocument();
    expect(ticketRequests()).toEqual([]);
  });

  it('opens a ticket with its transaction and image, then lists it as waiting for support', async () => {
    db.transactions = [buildTransaction({ id: 'tx-topup', type: 'topup.bank-transfer', realValue: 500000 })];
    const { events } = await openSupport();
    await fillTicket(events, { subject: '  Chưa nhận KP  ' });
    await waitFor(() => expect(within(transactionSelect()).getAllByRole('option')).toHaveLength(2));
    await events.selectOptions(transactionSelect(), 'tx-topup');
    await events.upload(attachmentInput(), png());
    expect(form().getByTestId('attachment-file')).toHaveTextContent('hoa-don.png');
    await events.click(submit());

    expect(await screen.findByText('Đã gửi yêu cầu hỗ trợ')).toBeInTheDocument();
    expect(supportDb.opened).toHaveLength(1);
    const { attachment, ...fields } = supportDb.opened[0]!;
    expect(fields).toEqual({
      category: 'topup_missing',
      subject: 'Chưa nhận KP',
      body: 'Tôi đã chuyển khoản lúc 10 giờ.',
      transactionId: 'tx-topup',
    });
    // Its type and size: the file's name does not survive MSW's reading of jsdom's form.
    expect(attachment).toMatch(new RegExp(`\\|image/png\\|${PNG_BYTES.length}$`));
    const ticket = supportDb.tickets[0]!;
    expect(screen.getByRole('link', { name: 'Xem yêu cầu' })).toHaveAttribute('href', `/support/tickets/${ticket.id}`);
    const list = await screen.findByRole('list', { name: 'Yêu cầu của tôi' });
    const item = within(list).getByRole('listitem');
    expect(item).toHaveTextContent('Chưa nhận KP');
    expect(within(item).getByText('Đang chờ hỗ trợ')).toBeInTheDocument();
    // The form is ready for another one.
    expect(subjectInput()).toHaveValue('');
    expect(bodyInput()).toHaveValue('');
    expect(categorySelect()).toHaveValue('');
    expect(form().queryByTestId('attachment-file')).not.toBeInTheDocument();
  });

  it('sends neither a transaction nor an image when none was chosen', async () => {
    const { events } = await openSupport();
    await fillTicket(events, { category: 'Khác' });
    await events.click(submit());
    await screen.findByText('Đã gửi yêu cầu hỗ trợ');
    expect(supportDb.opened).toEqual([{ category: 'other', subject: 'Chưa nhận KP', body: 'Tôi đã chuyển khoản lúc 10 giờ.' }]);
  });

  it('refuses an image over 5 MB as soon as it is picked, and sends nothing', async () => {
    const { events } = await openSupport();
    await fillTicket(events);
    await events.upload(attachmentInput(), new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'lon.png', { type: 'image/png' }));
    expect(await form().findByText('Ảnh đính kèm tối đa 5 MB')).toBeInTheDocument();
    await events.click(submit());
    expect(ticketRequests()).toEqual([]);

    // Another image takes its place; an image of exactly 5 MB is taken.
    await events.upload(attachmentInput(), new File([new Uint8Array(5 * 1024 * 1024)], 'vua.png', { type: 'image/png' }));
    await waitFor(() => expect(form().queryByText('Ảnh đính kèm tối đa 5 MB')).not.toBeInTheDocument());
    expect(form().getByTestId('attachment-file')).toHaveTextContent('vua.png');
    await events.click(form().getByRole('button', { name: 'Bỏ ảnh' }));
    expect(form().queryByTestId('attachment-file')).not.toBeInTheDocument();
  });

  it("puts the server's refusal of a file that is no image beside the image", async () => {
    const { events } = await openSupport();
    await fillTicket(events);
    await events.upload(attachmentInput(), new File(['không phải ảnh'], 'ghi-chu.png', { type: 'image/png' }));
    await events.click(submit());
    expect(await form().findByText(TICKET_ATTACHMENT_TYPE)).toBeInTheDocument();
    expect(form().getByRole('button', { name: 'Chọn ảnh' })).toHaveFocus();
    expect(screen.queryByText('Đã gửi yêu cầu hỗ trợ')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("puts each of the server's messages beside its field", async () => {
    server.use(
      http.post('/support/tickets', () =>
        validationError({
          category: [TICKET_CATEGORY_INVALID],
          subject: [TICKET_SUBJECT_REQUIRED],
          body: [TICKET_BODY_LONG],
          transactionId: [TICKET_TRANSACTION_UNKNOWN],
          attachment: [TICKET_ATTACHMENT_TYPE],
        }),
      ),
    );
    const { events } = await openSupport();
    await fillTicket(events);
    await events.click(submit());

    const messageOf = (field: HTMLElement) => field.closest('[role="group"]')!;
    expect(await form().findByText(TICKET_TRANSACTION_UNKNOWN)).toBeInTheDocument();
    expect(messageOf(categorySelect())).toHaveTextContent(TICKET_CATEGORY_INVALID);
    expect(messageOf(subjectInput())).toHaveTextContent(TICKET_SUBJECT_REQUIRED);
    expect(messageOf(bodyInput())).toHaveTextContent(TICKET_BODY_LONG);
    expect(messageOf(transactionSelect())).toHaveTextContent(TICKET_TRANSACTION_UNKNOWN);
    expect(messageOf(attachmentInput())).toHaveTextContent(TICKET_ATTACHMENT_TYPE);
    expect(categorySelect()).toHaveFocus();
  });

  it('says so when the player opened too many tickets today', async () => {
    supportDb.opened = Array.from({ length: TICKETS_PER_DAY }, () => ({}));
    const { events } = await openSupport();
    await fillTicket(events);
    await events.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Gửi yêu cầu không thành công');
    expect(alert).toHaveTextContent(TOO_MANY_TICKETS);
    expect(subjectInput()).toHaveValue('Chưa nhận KP');
  });
});
