import type { StaffBody } from '@/types/api-schema';
import type { components } from '@/types/openapi.gen';

import { http, record } from './common';
import { STAFF_FORBIDDEN, STAFF_REAUTH_NEEDED, buildStaff, signInStaff, staffDb } from './staff-handlers';

type Transfer = components['schemas']['TransferBody'];
type Adjustment = components['schemas']['AdjustmentBody'];
type Player = components['schemas']['PlayerBody'];

/** The gateway's and services' wording (contracts/src/messages/staff.rs). */
export const PLAYER_NOT_FOUND = 'Không tìm thấy người chơi';
export const TRANSFER_ALREADY_MATCHED = 'Giao dịch này đã được ghi có cho một người chơi khác';
export const TRANSFER_NOT_CREDITABLE =
  'Không thể ghi có giao dịch này: không rõ ngân hàng/ví nhận tiền hoặc số tiền không hợp lệ';
export const TRANSFER_NOT_FOUND = 'Không tìm thấy giao dịch chuyển khoản';
export const TRANSFER_NOT_OURS =
  'Giao dịch này không chuyển vào tài khoản nào của Kid nên không thể ghi có cho người chơi';
export const TRANSFER_ASKED_FOR_ANOTHER =
  'Giao dịch này đang chờ duyệt ghi có cho một người chơi khác; chỉ có thể duyệt đúng người chơi đó';
export const REASON_REQUIRED = 'Vui lòng nhập lý do';
export const OWN_ADJUSTMENT = 'Không thể tự duyệt điều chỉnh KP do chính mình tạo; cần một nhân viên tài chính khác';
export const ADJUSTMENT_DECIDED = 'Điều chỉnh KP này đã được xử lý';
export const ADJUSTMENT_NOT_FOUND = 'Không tìm thấy điều chỉnh KP';
export const ADJUSTMENT_KP = 'Số KP điều chỉnh phải khác 0 và không quá 1.000.000.000 mỗi lần';
const UNAUTHENTICATED = 'Unauthenticated.';
const CSRF_MISMATCH = 'CSRF token mismatch.';

/**
 * The KP above which an adjustment or a transfer's match waits for a second finance member (the
 * wallet's and payment's default).
 */
export const APPROVAL_THRESHOLD_KP = 200_000;

/** The finance member the seeded console has is staff-finance; maker-checker needs another. */
export const OTHER_FINANCE = 'staff-finance2';

/**
 * Signs this browser in as a finance member (staff-finance unless told; OTHER_FINANCE is made
 * on first use), re-authenticated a moment ago: money may move without asking again.
 */
export function signInFinance(username = 'staff-finance'): StaffBody {
  if (username === OTHER_FINANCE && !staffDb.members.some((member) => member.username === username)) {
    staffDb.members.push(buildStaff({ username, role: 'finance' }));
  }
  const member = signInStaff(username);
  staffDb.reauthenticatedUntil = new Date(Date.now() + 5 * 60_000).toISOString();
  return member;
}

export function buildPlayer(overrides: Partial<Player> & Pick<Player, 'id' | 'username'>): Player {
  return {
    email: `${overrides.username}@example.com`,
    phoneNumber: '',
    createdAt: '2026-10-01T02:00:00Z',
    closedAt: null,
    lockedAt: null,
    lockedReason: '',
    ...overrides,
  };
}

export const FINANCE_PLAYERS = {
  quenmanap: buildPlayer({ id: '0193f1c2-9a00-7000-8000-000000000001', username: 'quenmanap' }),
  minhtran: buildPlayer({ id: '0193f1c2-9a00-7000-8000-000000000002', username: 'minhtran' }),
  lanvu: buildPlayer({ id: '0193f1c2-9a00-7000-8000-000000000003', username: 'lanvu' }),
};

let transferCount = 0;

/** An unmatched Vietcombank transfer of 50,000 VND unless told otherwise; each its own id. */
export function buildTransfer(overrides: Partial<Transfer> = {}): Transfer {
  transferCount += 1;
  return {
    id: `0193f1c2-7b00-7000-8000-${String(transferCount).padStart(12, '0')}`,
    providerId: `SP-${9000 + transferCount}`,
    methodCode: 'vietcombank',
    transactionDate: '2026-11-28 09:00:00',
    accountNumber: '1023456789',
    amountVnd: 50_000,
    content: 'chuyen tien',
    referenceCode: `FT2633${String(transferCount).padStart(6, '0')}`,
    reason: "no player's transfer content",
    receivedAt: '2026-11-28T02:00:05Z',
    status: 'unmatched',
    userId: '',
    username: '',
    matchedAt: null,
    kp: 50_000,
    suggestions: [],
    pendingMatch: null,
    ...overrides,
  };
}

function seedTransfers(): Transfer[] {
  const { quenmanap, minhtran, lanvu } = FINANCE_PLAYERS;
  return [
    buildTransfer({
      content: 'nap tien quenmanap',
      suggestions: [{ userId: quenmanap.id, username: quenmanap.username, code: '', why: 'content_names_username' }],
    }),
    buildTransfer({
      amountVnd: 100_000,
      kp: 100_000,
      content: 'KIDQM7K2PX KIDMT4R8ZY',
      suggestions: [
        { userId: quenmanap.id, username: quenmanap.username, code: 'KIDQM7K2PX', why: 'content_names_code' },
        { userId: minhtran.id, username: minhtran.username, code: 'KIDMT4R8ZY', why: 'content_names_code' },
      ],
    }),
    buildTransfer({
      methodCode: '',
      amountVnd: 20_000,
      kp: 0,
      accountNumber: '9999999999',
      reason: 'unknown bank or e-wallet',
      content: 'KIDMT4R8ZX',
      suggestions: [{ userId: minhtran.id, username: minhtran.username, code: 'KIDMT4R8ZY', why: 'content_near_code' }],
    }),
    buildTransfer({
      status: 'credited',
      content: 'lanvu nap',
      userId: lanvu.id,
      username: lanvu.username,
      matchedAt: '2026-11-27T08:15:00Z',
    }),
  ];
}

let adjustmentCount = 0;

/** An applied credit of 50,000 KP to quenmanap asked by staff-finance unless told otherwise. */
export function buildAdjustment(overrides: Partial<Adjustment> = {}): Adjustment {
  adjustmentCount += 1;
  const finance = staffDb.members.find(({ username }) => username === 'staff-finance');
  return {
    id: `0193f1c2-ad00-7000-8000-${String(adjustmentCount).padStart(12, '0')}`,
    userId: FINANCE_PLAYERS.quenmanap.id,
    kp: 50_000,
    reason: 'Bồi hoàn sự cố nạp',
    status: 'applied',
    requestedBy: finance?.id ?? '',
    requestedByUsername: 'staff-finance',
    decidedByUsername: '',
    decidedAt: null,
    transactionId: '',
    createdAt: '2026-11-27T03:00:00Z',
    ...overrides,
  };
}

/** A transfer a member matched without a second member: what the rolling 24-hour totals add up. */
type MatchedAlone = { staffId: string; userId: string; kp: number; at: number };

/**
 * The fake console's money: players the look-up finds, kept transfers (newest first), the
 * matches made alone, adjustments (newest first), and every money call as sent (with its
 * Idempotency-Key).
 */
export const financeDb = {
  players: Object.values(FINANCE_PLAYERS),
  transfers: seedTransfers(),
  matchedAlone: [] as MatchedAlone[],
  adjustments: [] as Adjustment[],
  /** An ask's Idempotency-Key by member, and the adjustment it made. */
  askKeys: new Map<string, string>(),
  calls: [] as { call: string; body?: unknown; key?: string | null }[],
};

export function resetFinanceDb() {
  transferCount = 0;
  adjustmentCount = 0;
  financeDb.players = Object.values(FINANCE_PLAYERS);
  financeDb.transfers = seedTransfers();
  financeDb.matchedAlone = [];
  financeDb.adjustments = [];
  financeDb.askKeys = new Map();
  financeDb.calls = [];
}

const signedIn = () => staffDb.members.find((member) => member.id === staffDb.signedInId && !member.disabled);
const validXsrf = (request: Request) => request.headers.get('X-XSRF-TOKEN') === staffDb.xsrfToken;
const reauthenticated = () => !!staffDb.reauthenticatedUntil && new Date(staffDb.reauthenticatedUntil) > new Date();

function note(request: Request, body?: unknown) {
  record(request);
  const url = new URL(request.url);
  financeDb.calls.push({ call: `${request.method} ${url.pathname}${url.search}`, body, key: request.headers.get('Idempotency-Key') });
}

const findPlayer = (key: string) => {
  const wanted = key.trim().toLowerCase();
  return financeDb.players.find((player) => player.username === wanted || player.id === wanted);
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a match of `kp` waits for a second member, as payment decides it: above the threshold
 * alone, or taking what the member matched alone, or what was matched alone to the player, over
 * it within 24 hours.
 */
function needsAChecker(staffId: string, userId: string, kp: number): boolean {
  if (Math.abs(kp) > APPROVAL_THRESHOLD_KP) return true;
  const lately = financeDb.matchedAlone.filter(({ at }) => at > Date.now() - DAY_MS);
  const total = (pick: (each: MatchedAlone) => boolean) => lately.filter(pick).reduce((sum, each) => sum + each.kp, 0);
  return [total((each) => each.staffId === staffId), total((each) => each.userId === userId)].some(
    (sum) => Math.abs(sum) + Math.abs(kp) > APPROVAL_THRESHOLD_KP,
  );
}

export const staffFinanceHandlers = [
  http.get('/staff/players', ({ request, response }) => {
    note(request);
    if (!signedIn()) return response(401).json({ message: UNAUTHENTICATED });
    const q = new URL(request.url).searchParams.get('q')?.trim().toLowerCase() ?? '';
    if (!q) return response(200).json([]);
    return response(200).json(financeDb.players.filter((player) => player.username.startsWith(q) || player.id === q));
  }),

  http.get('/staff/transfers', ({ request, response }) => {
    note(request);
    if (!signedIn()) return response(401).json({ message: UNAUTHENTICATED });
    const matched = new URL(request.url).searchParams.get('matched') === 'true';
    return response(200).json(financeDb.transfers.filter((transfer) => (transfer.status === 'credited') === matched));
  }),

  http.post('/staff/transfers/{id}/match', async ({ request, params, response }) => {
    const body = await request.json();
    note(request, body);
    const member = signedIn();
    if (!member) return response(401).json({ message: UNAUTHENTICATED });
    if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
    if (member.role !== 'finance') return response(403).json({ message: STAFF_FORBIDDEN });
    if (!reauthenticated()) return response(403).json({ message: STAFF_REAUTH_NEEDED, code: 'reauth_required' });
    const player = findPlayer(body.player ?? '');
    if (!player) return response(422).json({ message: PLAYER_NOT_FOUND, errors: { player: [PLAYER_NOT_FOUND] } });
    const index = financeDb.transfers.findIndex((transfer) => transfer.id === params.id);
    const transfer = financeDb.transfers[index];
    if (!transfer) return response(404).json({ message: TRANSFER_NOT_FOUND });
    if (transfer.status === 'credited') {
      if (transfer.userId !== player.id) return response(409).json({ message: TRANSFER_ALREADY_MATCHED });
      return response(200).json({ transfer, kp: transfer.kp, already: true, pending: false });
    }
    if (transfer.reason === 'not one of our accounts') return response(409).json({ message: TRANSFER_NOT_OURS });
    if (transfer.kp <= 0) return response(409).json({ message: TRANSFER_NOT_CREDITABLE });
    // Maker-checker: another member approves the ask, only for its player; its asker asking
    // again for that player changes nothing, for another one replaces it.
    const ask = transfer.pendingMatch;
    const approving = !!ask && ask.askedByUsername !== member.username;
    if (approving && ask.userId !== player.id) return response(409).json({ message: TRANSFER_ASKED_FOR_ANOTHER });
    if (ask && !approving && ask.userId === player.id) {
      return response(200).json({ transfer, kp: transfer.kp, already: true, pending: true });
    }
    if (!approving && needsAChecker(member.id, player.id, transfer.kp)) {
      const asked: Transfer = {
        ...transfer,
        pendingMatch: {
          userId: player.id,
          username: player.username,
          askedByUsername: member.username,
          askedAt: new Date().toISOString(),
        },
      };
      financeDb.transfers[index] = asked;
      return response(200).json({ transfer: asked, kp: asked.kp, already: false, pending: true });
    }
    const matched: Transfer = {
      ...transfer,
      status: 'credited',
      userId: player.id,
      username: player.username,
      matchedAt: new Date().toISOString(),
      pendingMatch: null,
    };
    financeDb.transfers[index] = matched;
    if (!approving) financeDb.matchedAlone.push({ staffId: member.id, userId: player.id, kp: matched.kp, at: Date.now() });
    return response(200).json({ transfer: matched, kp: matched.kp, already: false, pending: false });
  }),

  http.get('/staff/adjustments', ({ request, response }) => {
    note(request);
    if (!signedIn()) return response(401).json({ message: UNAUTHENTICATED });
    const status = new URL(request.url).searchParams.get('status');
    return response(200).json({
      adjustments: financeDb.adjustments.filter((adjustment) => !status || adjustment.status === status),
      approvalThresholdKp: APPROVAL_THRESHOLD_KP,
    });
  }),

  http.post('/staff/adjustments', async ({ request, response }) => {
    const body = await request.json();
    note(request, body);
    const member = signedIn();
    if (!member) return response(401).json({ message: UNAUTHENTICATED });
    if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
    if (member.role !== 'finance') return response(403).json({ message: STAFF_FORBIDDEN });
    if (!reauthenticated()) return response(403).json({ message: STAFF_REAUTH_NEEDED, code: 'reauth_required' });
    const key = request.headers.get('Idempotency-Key');
    const made = key && financeDb.askKeys.get(`${member.id}:${key}`);
    const earlier = made && financeDb.adjustments.find((adjustment) => adjustment.id === made);
    if (earlier) return response(201).json({ adjustment: earlier, approvalThresholdKp: APPROVAL_THRESHOLD_KP });
    const player = financeDb.players.find(({ id }) => id === body.userId);
    if (!player) return response(404).json({ message: PLAYER_NOT_FOUND });
    const kp = body.kp ?? 0;
    const errors: Record<string, string[]> = {};
    if (kp === 0 || Math.abs(kp) > 1_000_000_000) errors.kp = [ADJUSTMENT_KP];
    if (!body.reason?.trim()) errors.reason = [REASON_REQUIRED];
    if (Object.keys(errors).length > 0) return response(422).json({ message: Object.values(errors)[0]![0]!, errors });
    const pending = Math.abs(kp) > APPROVAL_THRESHOLD_KP;
    const adjustment = buildAdjustment({
      userId: player.id,
      kp,
      reason: body.reason?.trim() ?? '',
      status: pending ? 'pending' : 'applied',
      requestedBy: member.id,
      requestedByUsername: member.username,
      createdAt: new Date().toISOString(),
      decidedAt: pending ? null : new Date().toISOString(),
    });
    financeDb.adjustments.unshift(adjustment);
    if (key) financeDb.askKeys.set(`${member.id}:${key}`, adjustment.id);
    return response(201).json({ adjustment, approvalThresholdKp: APPROVAL_THRESHOLD_KP });
  }),

  ...(['approve', 'reject'] as const).map((decision) =>
    http.post(`/staff/adjustments/{id}/${decision}`, ({ request, params, response }) => {
      note(request);
      const member = signedIn();
      if (!member) return response(401).json({ message: UNAUTHENTICATED });
      if (!validXsrf(request)) return response(419).json({ message: CSRF_MISMATCH });
      if (member.role !== 'finance') return response(403).json({ message: STAFF_FORBIDDEN });
      if (decision === 'approve' && !reauthenticated()) {
        return response(403).json({ message: STAFF_REAUTH_NEEDED, code: 'reauth_required' });
      }
      const index = financeDb.adjustments.findIndex((adjustment) => adjustment.id === params.id);
      const adjustment = financeDb.adjustments[index];
      if (!adjustment) return response(404).json({ message: ADJUSTMENT_NOT_FOUND });
      if (adjustment.requestedBy === member.id) return response(403).json({ message: OWN_ADJUSTMENT });
      if (adjustment.status !== 'pending') return response(409).json({ message: ADJUSTMENT_DECIDED });
      const decided: Adjustment = {
        ...adjustment,
        status: decision === 'approve' ? 'applied' : 'rejected',
        decidedByUsername: member.username,
        decidedAt: new Date().toISOString(),
      };
      financeDb.adjustments[index] = decided;
      return response(200).json({ adjustment: decided, approvalThresholdKp: APPROVAL_THRESHOLD_KP });
    }),
  ),
];
