import type { HttpHandler } from 'msw';

import type { Transaction } from '@/types/api-schema';

import { http, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The gateway's wording (contracts/src/messages/history.rs). */
export const HISTORY_LIMIT_INVALID = 'Số giao dịch mỗi trang phải từ 1 đến 100.';
export const HISTORY_CURSOR_INVALID = 'Vị trí trang không hợp lệ, hãy tải lại lịch sử giao dịch từ đầu.';
export const HISTORY_TYPE_INVALID = 'Loại giao dịch không hợp lệ.';
export const HISTORY_STATUS_INVALID = 'Trạng thái giao dịch không hợp lệ.';
export const HISTORY_DATE_INVALID = 'Ngày không hợp lệ, hãy nhập theo dạng YYYY-MM-DD.';
export const HISTORY_RANGE_INVALID = 'Ngày kết thúc không được trước ngày bắt đầu.';
export const TRANSACTION_NOT_FOUND = 'Không tìm thấy giao dịch.';

/** The types the full history lists; related transactions show inside them. */
const TYPES = ['topup.bank-transfer', 'topup.e-wallet', 'topup.card', 'credit.pay', 'giftcode', 'adjustment'];
const STATUSES = ['pending', 'success', 'failed'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const isDay = (value: string) => DAY.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** The day in Vietnam (UTC+7) a moment falls on, as YYYY-MM-DD. */
const vietnamDay = (at: string) => new Date(new Date(at).getTime() + 7 * 3_600_000).toISOString().slice(0, 10);

/** A page's position, opaque to the app as the gateway's: the last transaction's id. */
const encodeCursor = (id: string) => btoa(`after:${id}`);
function decodeCursor(cursor: string): string | null {
  try {
    const decoded = atob(cursor);
    return decoded.startsWith('after:') ? decoded.slice('after:'.length) : null;
  } catch {
    return null;
  }
}

/** A parameter sent empty counts as absent, as at the gateway. */
const given = (search: URLSearchParams, name: string) => search.get(name)?.trim() || null;

/**
 * As the gateway's GET /transactions: every bad parameter named at once (422), else the
 * matching transactions of `db.transactions` (kept newest first), a page after the cursor's.
 */
function search(url: URL): { errors: Record<string, string[]> } | { items: Transaction[]; nextCursor: string | null } {
  const params = url.searchParams;
  const errors: Record<string, string[]> = {};
  const limitText = given(params, 'limit');
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) errors.limit = [HISTORY_LIMIT_INVALID];
  const cursorText = given(params, 'cursor');
  const after = cursorText === null ? null : decodeCursor(cursorText);
  if (cursorText !== null && (after === null || !db.transactions.some((item) => item.id === after))) {
    errors.cursor = [HISTORY_CURSOR_INVALID];
  }
  const type = given(params, 'type');
  if (type !== null && !TYPES.includes(type)) errors.type = [HISTORY_TYPE_INVALID];
  const status = given(params, 'status');
  if (status !== null && !STATUSES.includes(status)) errors.status = [HISTORY_STATUS_INVALID];
  const from = given(params, 'from');
  if (from !== null && !isDay(from)) errors.from = [HISTORY_DATE_INVALID];
  const to = given(params, 'to');
  if (to !== null && !isDay(to)) errors.to = [HISTORY_DATE_INVALID];
  else if (from !== null && to !== null && isDay(from) && to < from) errors.to = [HISTORY_RANGE_INVALID];
  if (Object.keys(errors).length > 0) return { errors };

  const matching = db.transactions.filter((item) => {
    if (!TYPES.includes(item.type)) return false;
    if (type !== null && item.type !== type) return false;
    if (status !== null && item.status !== status) return false;
    const day = item.createdAt ? vietnamDay(item.createdAt) : null;
    if (from !== null && (day === null || day < from)) return false;
    if (to !== null && (day === null || day > to)) return false;
    return true;
  });
  const start = after === null ? 0 : matching.findIndex((item) => item.id === after) + 1;
  const items = matching.slice(start, start + limit);
  const last = items.at(-1);
  const more = start + limit < matching.length;
  return { items, nextCursor: more && last ? encodeCursor(last.id) : null };
}

/** Handlers for GET /transactions and GET /transactions/{id}. */
export const transactionsHandlers: HttpHandler[] = [
  http.get('/transactions', ({ request, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    const result = search(new URL(request.url));
    return 'errors' in result ? validationError(result.errors) : response(200).json(result);
  }),

  http.get('/transactions/{id}', ({ request, params, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    const transaction = db.transactions.find((item) => item.id === params.id);
    return transaction ? response(200).json(transaction) : response(404).json({ message: TRANSACTION_NOT_FOUND });
  }),
];
