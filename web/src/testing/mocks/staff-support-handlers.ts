import type { Session, SignIn, TicketBody, TicketMessageBody, TicketSummaryBody, Transaction } from '@/types/api-schema';
import type { components } from '@/types/openapi.gen';

import { http, record } from './common';
import { STAFF_FORBIDDEN, STAFF_REAUTH_NEEDED, staffDb } from './staff-handlers';

type Player = components['schemas']['PlayerBody'];
type Order = components['schemas']['OrderBody'];
type Adjustment = components['schemas']['AdjustmentBody'];
type Wallet = components['schemas']['WalletBody'];

/** The gateway's and services' wording (contracts/src/messages/staff.rs, support.rs). */
export const SUPPORT_PLAYER_NOT_FOUND = 'Không tìm thấy người chơi';
export const SUPPORT_REASON_REQUIRED = 'Vui lòng nhập lý do';
export const ORDER_NOT_AWAITING = 'Chỉ gửi lại được đơn đang chờ game giao xu; đơn này đã được giao hoặc đã hoàn KP';
export const ORDER_NOT_FOUND = 'Không tìm thấy đơn nạp xu';
export const TICKET_NOT_FOUND = 'Không tìm thấy yêu cầu hỗ trợ';
const UNAUTHENTICATED = 'Unauthenticated.';
const CSRF_MISMATCH = 'CSRF token mismatch.';

const PLAYER_ID = '0193f1c2-8c00-7000-8000-000000000001';
const OTHER_ID = '0193f1c2-8c00-7000-8000-000000000002';

const pad = (value: number) => String(value).padStart(12, '0');

let ledgerCount = 0;

/** A successful 100,000 VND Vietcombank top-up unless told otherwise; ids in creation order. */
export function buildLedgerEntry(overrides: Partial<Transaction> = {}): Transaction {
  ledgerCount += 1;
  return {
    id: `0193f1c2-8d00-7000-8000-${pad(ledgerCount)}`,
    type: 'topup.bank-transfer',
    status: 'success',
    realValue: 100_000,
    currency: 'VND',
    createdAt: '2026-11-20T03:00:00Z',
    updatedAt: '2026-11-20T03:00:05Z',
    payload: { source: 'vietcombank' },
    relatedTransactions: [{ id: `related-${ledgerCount}`, type: 'credit.recharge', realValue: 100_000 }],
    ...overrides,
  };
}

function buildOrder(overrides: Partial<Order> = {}): Order {
  return {
    id: '0193f1c2-8e00-7000-8000-000000000001',
    productCode: 'fsonline',
    zoneId: 97,
    username: 'nguyenvana',
    credit: 100_000,
    coins: 1_000,
    milestoneBonus: 50,
    eventBonus: 100,
    lotteryPoints: 0,
    status: 'awaiting_delivery',
    failureReason: null,
    transactionId: '0193f1c2-8d00-7000-8000-000000009001',
    deliverBy: '2026-11-28T03:10:00Z',
    createdAt: '2026-11-28T03:00:00Z',
    updatedAt: '2026-11-28T03:00:01Z',
    ...overrides,
  };
}

function seedPlayers(): Player[] {
  return [
    {
      id: PLAYER_ID,
      username: 'nguyenvana',
      email: 'nguyenvana@example.com',
      phoneNumber: '0912345678',
      createdAt: '2026-10-01T02:00:00Z',
      closedAt: null,
      lockedAt: null,
      lockedReason: '',
    },
    {
      id: OTHER_ID,
      username: 'nguyenvanb',
      email: 'vanb@example.com',
      phoneNumber: '',
      createdAt: '2026-10-02T02:00:00Z',
      closedAt: '2026-11-01T02:00:00Z',
      lockedAt: '2026-11-02T02:00:00Z',
      lockedReason: 'Nghi bị chiếm tài khoản',
    },
  ];
}

function seedSessions(): Session[] {
  return [
    {
      id: 'session-handle-1',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0',
      ip: '113.161.52.7',
      createdAt: '2026-11-27T01:00:00Z',
      lastSeenAt: '2026-11-28T02:30:00Z',
      current: false,
      remember: true,
    },
  ];
}

function seedSignIns(): SignIn[] {
  return [
    {
      id: 'sign-in-2',
      occurredAt: '2026-11-27T01:00:00Z',
      ip: '113.161.52.7',
      device: 'Chrome 131 trên Windows 10',
      userAgent: 'Mozilla/5.0',
      method: 'password',
      succeeded: true,
      failure: null,
    },
    {
      id: 'sign-in-1',
      occurredAt: '2026-11-27T00:59:00Z',
      ip: '113.161.52.7',
      device: 'Chrome 131 trên Windows 10',
      userAgent: 'Mozilla/5.0',
      method: 'password',
      succeeded: false,
      failure: 'wrongPassword',
    },
  ];
}

function seedTickets(): TicketBody[] {
  const summary = (overrides: Partial<TicketSummaryBody>): TicketSummaryBody => ({
    id: '0193f1c2-8f00-7000-8000-000000000001',
    category: 'topup_missing',
    subject: 'Chuyển khoản chưa nhận được KP',
    transactionId: '0193f1c2-8d00-7000-8000-000000000001',
    status: 'open',
    createdAt: '2026-11-28T01:00:00Z',
    updatedAt: '2026-11-28T01:00:00Z',
    username: 'nguyenvana',
    userId: PLAYER_ID,
    ...overrides,
  });
  // As the console's answers carry them: support's replies name the member, the player's none.
  const message = (overrides: Partial<TicketMessageBody>): TicketMessageBody => ({
    id: 'message-1',
    author: 'player',
    body: 'Em chuyển 100.000 VND lúc 8 giờ sáng mà chưa thấy KP.',
    attachmentId: '',
    createdAt: '2026-11-28T01:00:00Z',
    ...overrides,
  });
  return [
    {
      ticket: summary({}),
      messages: [message({ attachmentId: '0193f1c2-9000-7000-8000-000000000001' })],
    },
    {
      ticket: summary({
        id: '0193f1c2-8f00-7000-8000-000000000002',
        category: 'coin_missing',
        subject: 'Nạp xu chưa vào game',
        transactionId: '',
        status: 'answered',
        updatedAt: '2026-11-27T05:00:00Z',
        username: 'nguyenvanb',
        userId: OTHER_ID,
      }),
      messages: [
        message({ id: 'message-2', body: 'Nạp 1.000 xu chưa vào nhân vật.' }),
        message({ id: 'message-3', author: 'support', staffUsername: 'staff-support', body: 'Bên mình đã gửi lại cho game.' }),
      ],
    },
  ];
}

/**
 * The fake console's players for the support pages: `nguyenvana` with a wallet, sessions,
 * sign-ins, 100 transactions on the first page and `olderLedger` after it (served 100 a page),
 * an order awaiting delivery, an adjustment and a ticket with an image; `nguyenvanb`, locked
 * and closed, with nothing else. What each call was sent is in `calls`.
 */
export const supportConsoleDb = {
  players: seedPlayers(),
  wallet: { credit: 565_000, debtCredit: 0, isPayPartner: true, partnerBonusBps: 250, payAmountLast28Days: 2_500_000 } as Wallet,
  sessions: seedSessions(),
  signIns: seedSignIns(),
  ledger: [] as Transaction[],
  olderLedger: [] as Transaction[],
  orders: [] as Order[],
  adjustments: [] as Adjustment[],
  tickets: seedTickets(),
  calls: [] as { call: string; body?: unknown }[],
};

function seedLedger() {
  ledgerCount = 0;
  supportConsoleDb.ledger = Array.from({ length: 100 }, () => buildLedgerEntry());
  supportConsoleDb.olderLedger = Array.from({ length: 30 }, () => buildLedgerEntry({ createdAt: '2026-10-05T03:00:00Z' }));
}

export function resetSupportConsoleDb() {
  supportConsoleDb.players = seedPlayers();
  supportConsoleDb.wallet = { credit: 565_000, debtCredit: 0, isPayPartner: true, partnerBonusBps: 250, payAmountLast28Days: 2_500_000 };
  supportConsoleDb.sessions = seedSessions();
  supportConsoleDb.signIns = seedSignIns();
  seedLedger();
  supportConsoleDb.orders = [
    buildOrder(),
    buildOrder({
      id: '0193f1c2-8e00-7000-8000-000000000002',
      zoneId: 1,
      status: 'delivered',
      deliverBy: '2026-11-25T03:10:00Z',
      createdAt: '2026-11-25T03:00:00Z',
      updatedAt: '2026-11-25T03:00:09Z',
    }),
  ];
  supportConsoleDb.adjustments = [
    {
      id: '0193f1c2-9100-7000-8000-000000000001',
      userId: PLAYER_ID,
      kp: 50_000,
      reason: 'Bồi hoàn sự cố nạp thẻ',
      status: 'applied',
      requestedBy: '0193f1c2-5aff-7000-8000-000000000002',
      requestedByUsername: 'staff-finance',
      decidedByUsername: '',
      decidedAt: null,
      transactionId: '0193f1c2-8d00-7000-8000-000000009002',
      createdAt: '2026-11-26T03:00:00Z',
    },
  ];
  supportConsoleDb.tickets = seedTickets();
  supportConsoleDb.calls = [];
}
resetSupportConsoleDb();

export const SUPPORT_PLAYER = { id: PLAYER_ID, username: 'nguyenvana' };
export const LOCKED_PLAYER = { id: OTHER_ID, username: 'nguyenvanb' };

const signedIn = () => staffDb.members.find((member) => member.id === staffDb.signedInId && !member.disabled);
const validXsrf = (request: Request) => request.headers.get('X-XSRF-TOKEN') === staffDb.xsrfToken;
const reauthenticated = () => !!staffDb.reauthenticatedUntil && new Date(staffDb.reauthenticatedUntil) > new Date();

function note(request: Request, body?: unknown) {
  record(request);
  const url = new URL(request.url);
  supportConsoleDb.calls.push({ call: `${request.method} ${url.pathname}${url.search}`, body });
}

const playerById = (id: string) => supportConsoleDb.players.find((player) => player.id === id);

/** Only the first player has a wallet, ledger, orders and tickets; the other has none. */
function detailOf(player: Player) {
  const main = player.id === PLAYER_ID;
  return {
    player,
    sessions: main ? supportConsoleDb.sessions : [],
    signIns: main ? supportConsoleDb.signIns : [],
    wallet: main ? supportConsoleDb.wallet : { credit: 0, debtCredit: 0, isPayPartner: false, partnerBonusBps: 0, payAmountLast28Days: 0 },
    ledger: main ? supportConsoleDb.ledger : [],
    ledgerNextCursor: main && supportConsoleDb.olderLedger.length > 0 ? 'cursor-0' : null,
    orders: main ? supportConsoleDb.orders : [],
    adjustments: supportConsoleDb.adjustments.filter((adjustment) => adjustment.userId === player.id),
    tickets: supportConsoleDb.tickets.filter(({ ticket }) => ticket.userId === player.id).map(({ ticket }) => ticket),
  };
}

/** The page of `olderLedger` a cursor `cursor-<offset>` starts; 100 a page unless `limit` says. */
function ledgerPage(cursor: string, limit: number) {
  const offset = Number(cursor.replace('cursor-', ''));
  const items = supportConsoleDb.olderLedger.slice(offset, offset + limit);
  const next = offset + limit < supportConsoleDb.olderLedger.length ? `cursor-${offset + limit}` : null;
  return { items, nextCursor: next };
}

type Guard = { status: 401 | 419 | 403; message: string; code?: string } | null;

/** A call that changes something: signed in, the XSRF token, the role, and for money a recent re-authentication. */
function refused(request: Request, roles: readonly string[], { money = false } = {}): Guard {
  const member = signedIn();
  if (!member) return { status: 401, message: UNAUTHENTICATED };
  if (!validXsrf(request)) return { status: 419, message: CSRF_MISMATCH };
  if (!roles.includes(member.role)) return { status: 403, message: STAFF_FORBIDDEN };
  if (money && !reauthenticated()) return { status: 403, message: STAFF_REAUTH_NEEDED, code: 'reauth_required' };
  return null;
}

export const staffSupportHandlers = [
  // Registered before the finance pages' look-up: a query none of these players matches is
  // left to it (a resolver that returns nothing passes the request on).
  http.get('/staff/players', ({ request, response }) => {
    if (!signedIn()) return undefined;
    const q = new URL(request.url).searchParams.get('q')?.trim().toLowerCase() ?? '';
    const found = supportConsoleDb.players.filter(
      (player) =>
        q !== '' &&
        (player.username.startsWith(q) || player.email === q || player.phoneNumber === q || player.id === q),
    );
    if (found.length === 0) return undefined;
    note(request);
    return response(200).json(found);
  }),

  http.get('/staff/players/{id}', ({ request, params, response }) => {
    note(request);
    if (!signedIn()) return response(401).json({ message: UNAUTHENTICATED });
    const player = playerById(params.id);
    if (!player) return response(404).json({ message: SUPPORT_PLAYER_NOT_FOUND });
    return response(200).json(detailOf(player));
  }),

  http.get('/staff/players/{id}/ledger', ({ request, params, response }) => {
    note(request);
    if (!signedIn()) return response(401).json({ message: UNAUTHENTICATED });
    if (!playerById(params.id)) return response(404).json({ message: SUPPORT_PLAYER_NOT_FOUND });
    const query = new URL(request.url).searchParams;
    return response(200).json(ledgerPage(query.get('cursor') ?? 'cursor-0', Number(query.get('limit') ?? 20)));
  }),

  http.post('/staff/players/{id}/sessions/revoke', ({ request, params, response }) => {
    note(request);
    const guard = refused(request, ['support']);
    if (guard) return response(guard.status).json(guard);
    const player = playerById(params.id);
    if (!player) return response(404).json({ message: SUPPORT_PLAYER_NOT_FOUND });
    if (player.id === PLAYER_ID) supportConsoleDb.sessions = [];
    return response(200).json(player);
  }),

  http.post('/staff/players/{id}/lock', async ({ request, params, response }) => {
    const body = await request.json();
    note(request, body);
    if (!body.reason?.trim()) {
      return response(422).json({ message: SUPPORT_REASON_REQUIRED, errors: { reason: [SUPPORT_REASON_REQUIRED] } });
    }
    const guard = refused(request, ['support']);
    if (guard) return response(guard.status).json(guard);
    const index = supportConsoleDb.players.findIndex((player) => player.id === params.id);
    if (index < 0) return response(404).json({ message: SUPPORT_PLAYER_NOT_FOUND });
    const locked = { ...supportConsoleDb.players[index]!, lockedAt: '2026-11-28T04:00:00Z', lockedReason: body.reason.trim() };
    supportConsoleDb.players[index] = locked;
    if (locked.id === PLAYER_ID) supportConsoleDb.sessions = [];
    return response(200).json(locked);
  }),

  http.post('/staff/players/{id}/unlock', ({ request, params, response }) => {
    note(request);
    const guard = refused(request, ['support']);
    if (guard) return response(guard.status).json(guard);
    const index = supportConsoleDb.players.findIndex((player) => player.id === params.id);
    if (index < 0) return response(404).json({ message: SUPPORT_PLAYER_NOT_FOUND });
    const unlocked = { ...supportConsoleDb.players[index]!, lockedAt: null, lockedReason: '' };
    supportConsoleDb.players[index] = unlocked;
    return response(200).json(unlocked);
  }),

  // The reference game takes the resent order at once here: it is delivered when the page reads it again.
  http.post('/staff/orders/{id}/resend', ({ request, params, response }) => {
    note(request);
    const guard = refused(request, ['support']);
    if (guard) return response(guard.status).json(guard);
    const index = supportConsoleDb.orders.findIndex((order) => order.id === params.id);
    const order = supportConsoleDb.orders[index];
    if (!order) return response(404).json({ message: ORDER_NOT_FOUND });
    if (order.status !== 'awaiting_delivery') return response(409).json({ message: ORDER_NOT_AWAITING });
    supportConsoleDb.orders[index] = { ...order, status: 'delivered', updatedAt: '2026-11-28T03:05:00Z' };
    return response(200).json({ order, messageId: `recharge-order-${order.id}` });
  }),

  http.post('/staff/orders/{id}/refund', async ({ request, params, response }) => {
    const body = await request.json();
    note(request, body);
    const guard = refused(request, ['finance'], { money: true });
    if (guard) return response(guard.status).json(guard);
    if (!body.reason?.trim()) {
      return response(422).json({ message: SUPPORT_REASON_REQUIRED, errors: { reason: [SUPPORT_REASON_REQUIRED] } });
    }
    const index = supportConsoleDb.orders.findIndex((order) => order.id === params.id);
    const order = supportConsoleDb.orders[index];
    if (!order) return response(404).json({ message: ORDER_NOT_FOUND });
    if (order.status === 'failed') return response(200).json({ order, already: true });
    const refunded = { ...order, status: 'failed', failureReason: body.reason.trim() };
    supportConsoleDb.orders[index] = refunded;
    supportConsoleDb.wallet = { ...supportConsoleDb.wallet, credit: supportConsoleDb.wallet.credit + order.credit };
    return response(200).json({ order: refunded, already: false });
  }),

  http.get('/staff/tickets', ({ request, response }) => {
    note(request);
    if (!signedIn()) return response(401).json({ message: UNAUTHENTICATED });
    const status = new URL(request.url).searchParams.get('status');
    return response(200).json(
      supportConsoleDb.tickets.map(({ ticket }) => ticket).filter((ticket) => !status || ticket.status === status),
    );
  }),

  http.get('/staff/tickets/{id}', ({ request, params, response }) => {
    note(request);
    if (!signedIn()) return response(401).json({ message: UNAUTHENTICATED });
    const found = supportConsoleDb.tickets.find(({ ticket }) => ticket.id === params.id);
    return found ? response(200).json(found) : response(404).json({ message: TICKET_NOT_FOUND });
  }),

  http.post('/staff/tickets/{id}/reply', async ({ request, params, response }) => {
    const body = await request.json();
    note(request, body);
    const guard = refused(request, ['support']);
    if (guard) return response(guard.status).json(guard);
    const index = supportConsoleDb.tickets.findIndex(({ ticket }) => ticket.id === params.id);
    const found = supportConsoleDb.tickets[index];
    if (!found) return response(404).json({ message: TICKET_NOT_FOUND });
    const member = signedIn();
    const answered: TicketBody = {
      ticket: { ...found.ticket, status: body.close ? 'closed' : 'answered', updatedAt: '2026-11-28T05:00:00Z' },
      messages: [
        ...found.messages,
        {
          id: `reply-${found.messages.length + 1}`,
          author: 'support',
          staffUsername: member?.username,
          body: body.body?.trim() ?? '',
          attachmentId: '',
          createdAt: '2026-11-28T05:00:00Z',
        },
      ],
    };
    supportConsoleDb.tickets[index] = answered;
    return response(200).json(answered);
  }),
];
