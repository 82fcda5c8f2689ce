import { HttpResponse, type HttpHandler } from 'msw';

import type { ErrorBody, TicketBody, TicketMessageBody, TicketSummaryBody } from '@/types/api-schema';

import { csrfMismatch, hasValidXsrf, http, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The gateway's wording (contracts/src/messages/support.rs). */
export const TICKET_CATEGORY_INVALID = 'Vui lòng chọn loại yêu cầu';
export const TICKET_SUBJECT_REQUIRED = 'Vui lòng nhập tiêu đề';
export const TICKET_SUBJECT_LONG = 'Tiêu đề tối đa 120 ký tự';
export const TICKET_BODY_REQUIRED = 'Vui lòng mô tả vấn đề của bạn';
export const TICKET_BODY_LONG = 'Nội dung tối đa 4000 ký tự';
export const TICKET_TRANSACTION_UNKNOWN = 'Giao dịch đã chọn không có trong lịch sử của bạn';
export const TICKET_ATTACHMENT_TYPE = 'Tệp đính kèm phải là ảnh PNG, JPEG hoặc WebP';
export const TICKET_ATTACHMENT_SIZE = 'Ảnh đính kèm tối đa 5 MB';
export const TICKET_CLOSED = 'Yêu cầu này đã đóng; hãy tạo yêu cầu mới nếu bạn cần hỗ trợ thêm';
export const TICKET_NOT_FOUND = 'Không tìm thấy yêu cầu hỗ trợ';
export const TOO_MANY_TICKETS = 'Bạn đã tạo quá nhiều yêu cầu hôm nay; vui lòng chờ bộ phận hỗ trợ trả lời';

/** The first bytes of a real PNG: what the server recognises an image by. */
export const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

const CATEGORIES = ['topup_missing', 'coin_missing', 'account', 'other'];
const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
/** Tickets a player may open in a day, as the identity service counts them. */
export const TICKETS_PER_DAY = 10;

let ids = 0;
const nextId = (kind: string) => {
  ids += 1;
  return `0194a000-0000-7000-8000-${kind}${String(ids).padStart(12 - kind.length, '0')}`;
};

export function buildTicket(overrides: Partial<TicketSummaryBody> = {}): TicketSummaryBody {
  return {
    id: nextId('t'),
    category: 'topup_missing',
    subject: 'Nạp thẻ chưa nhận được KP',
    transactionId: '',
    status: 'open',
    createdAt: '2026-11-20T09:00:00Z',
    updatedAt: '2026-11-20T09:00:00Z',
    username: 'player01',
    userId: '0193f000-0000-7000-8000-000000000001',
    ...overrides,
  };
}

/**
 * A message as a player's answer carries it: the player's own unless `author: 'support'`, and
 * never a `staffUsername` (the gateway names no staff member to a player).
 */
export function buildMessage(overrides: Partial<TicketMessageBody> = {}): TicketMessageBody {
  return {
    id: nextId('m'),
    author: 'player',
    body: 'Tôi đã nạp thẻ nhưng chưa nhận được KP.',
    attachmentId: '',
    createdAt: '2026-11-20T09:00:00Z',
    ...overrides,
  };
}

/**
 * The fake server's tickets of the signed-in player, newest activity first as the gateway
 * lists them, each with its messages; and what the forms sent.
 */
export const supportDb = {
  tickets: [] as TicketSummaryBody[],
  messages: {} as Record<string, TicketMessageBody[]>,
  /** The fields of each POST /support/tickets, as received (a file as its name, type and size). */
  opened: [] as Record<string, string>[],
  /** The fields of each answer, as received. */
  answers: [] as Record<string, string>[],
};

export function resetSupportDb() {
  supportDb.tickets = [];
  supportDb.messages = {};
  supportDb.opened = [];
  supportDb.answers = [];
}

/** Adds a ticket with its conversation (the player's first message unless told). */
export function addTicket(ticket: TicketSummaryBody, messages: TicketMessageBody[] = [buildMessage()]) {
  supportDb.tickets.unshift(ticket);
  supportDb.messages[ticket.id] = messages;
  return ticket;
}

const ticketBody = (id: string): TicketBody => ({
  ticket: supportDb.tickets.find((ticket) => ticket.id === id)!,
  messages: supportDb.messages[id] ?? [],
});

/** A form's fields as strings: a file as "name|type|size". */
function described(form: FormData): Record<string, string> {
  return Object.fromEntries(
    [...form.entries()].map(([name, value]) => [
      name,
      typeof value === 'string' ? value : `${value.name}|${value.type}|${value.size}`,
    ]),
  );
}

/** A text field of the form, '' when absent. */
function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** As the identity service: an image is a PNG, JPEG or WebP by its first bytes, whatever its name. */
function isImage(bytes: Uint8Array): boolean {
  const starts = (...prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
  const ascii = (from: number, text: string) => [...text].every((char, index) => bytes[from + index] === char.charCodeAt(0));
  return starts(0x89, 0x50, 0x4e, 0x47) || starts(0xff, 0xd8, 0xff) || (ascii(0, 'RIFF') && ascii(8, 'WEBP'));
}

/** The message's checks (body and image); the image's id when it is kept. */
async function checkMessage(form: FormData, errors: Record<string, string[]>): Promise<string> {
  const body = text(form, 'body').trim();
  if (!body) errors.body = [TICKET_BODY_REQUIRED];
  else if ([...body].length > 4000) errors.body = [TICKET_BODY_LONG];
  const file = form.get('attachment');
  // Not `instanceof Blob`: the request's files are Node's, the test's globals jsdom's.
  if (file === null || typeof file === 'string' || file.size === 0) return '';
  if (file.size > MAX_ATTACHMENT_BYTES) {
    errors.attachment = [TICKET_ATTACHMENT_SIZE];
    return '';
  }
  if (!isImage(new Uint8Array(await file.arrayBuffer()))) {
    errors.attachment = [TICKET_ATTACHMENT_TYPE];
    return '';
  }
  return nextId('a');
}

const conflict = (message: string) => HttpResponse.json<ErrorBody>({ message }, { status: 409 });

/** Handlers for the player's support centre (GET/POST /support/tickets, a ticket and its answers). */
export const supportHandlers: HttpHandler[] = [
  http.get('/support/tickets', ({ request, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    return response(200).json(supportDb.tickets);
  }),

  http.post('/support/tickets', async ({ request }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    if (!hasValidXsrf(request)) return csrfMismatch();
    const form = await request.formData();
    supportDb.opened.push(described(form));
    const errors: Record<string, string[]> = {};
    const category = text(form, 'category');
    if (!CATEGORIES.includes(category)) errors.category = [TICKET_CATEGORY_INVALID];
    const subject = text(form, 'subject').trim();
    if (!subject) errors.subject = [TICKET_SUBJECT_REQUIRED];
    else if ([...subject].length > 120) errors.subject = [TICKET_SUBJECT_LONG];
    const transactionId = text(form, 'transactionId').trim();
    // The gateway checks the transaction first, alone.
    if (transactionId && !db.transactions.some((item) => item.id === transactionId)) {
      return validationError({ transactionId: [TICKET_TRANSACTION_UNKNOWN] });
    }
    const attachmentId = await checkMessage(form, errors);
    if (Object.keys(errors).length > 0) return validationError(errors);
    if (supportDb.opened.length > TICKETS_PER_DAY) return conflict(TOO_MANY_TICKETS);
    const now = new Date().toISOString();
    const ticket = addTicket(
      buildTicket({ category, subject, transactionId, status: 'open', createdAt: now, updatedAt: now }),
      [buildMessage({ body: text(form, 'body').trim(), attachmentId, createdAt: now })],
    );
    return HttpResponse.json<TicketBody>(ticketBody(ticket.id), { status: 201 });
  }),

  http.get('/support/tickets/{id}', ({ request, params, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    if (!supportDb.tickets.some((ticket) => ticket.id === params.id)) {
      return response(404).json({ message: TICKET_NOT_FOUND });
    }
    return response(200).json(ticketBody(params.id));
  }),

  http.post('/support/tickets/{id}/messages', async ({ request, params }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    if (!hasValidXsrf(request)) return csrfMismatch();
    const ticket = supportDb.tickets.find((item) => item.id === params.id);
    if (!ticket) return HttpResponse.json<ErrorBody>({ message: TICKET_NOT_FOUND }, { status: 404 });
    const form = await request.formData();
    supportDb.answers.push(described(form));
    const errors: Record<string, string[]> = {};
    const attachmentId = await checkMessage(form, errors);
    if (Object.keys(errors).length > 0) return validationError(errors);
    if (ticket.status === 'closed') return conflict(TICKET_CLOSED);
    const now = new Date().toISOString();
    supportDb.messages[ticket.id]!.push(buildMessage({ body: text(form, 'body').trim(), attachmentId, createdAt: now }));
    Object.assign(ticket, { status: 'open', updatedAt: now });
    // The most recently active first.
    supportDb.tickets = [ticket, ...supportDb.tickets.filter((item) => item !== ticket)];
    return HttpResponse.json<TicketBody>(ticketBody(ticket.id));
  }),
];
