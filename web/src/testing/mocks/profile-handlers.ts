import type { HttpHandler } from 'msw';

import type { ExportBody, ProfileBody } from '@/types/api-schema';

import { csrfMismatch, hasValidXsrf, http, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The bodies PATCH /me/update-profile accepted, oldest first. */
export const profileUpdates: ProfileBody[] = [];

export function resetProfileUpdates() {
  profileUpdates.length = 0;
}

/** The identity service's words for the password of POST /me/delete. */
export const DELETE_PASSWORD_REQUIRED = 'Hãy nhập mật khẩu hiện tại của bạn.';
export const DELETE_PASSWORD_WRONG = 'Mật khẩu hiện tại không chính xác.';
/** What signing in to a closed account with its right password answers, under errors.username. */
export const ACCOUNT_CLOSED =
  'Tài khoản này đã được đóng theo yêu cầu xóa của chủ tài khoản. ' +
  'Nếu bạn muốn giữ lại tài khoản, hãy liên hệ bộ phận hỗ trợ trong vòng 30 ngày kể từ ngày đóng.';
/** When the fake server erases a closed account: 30 days after it was closed. */
export const ERASE_AFTER = '2026-12-27T10:00:00Z';

/** The passwords POST /me/delete was sent, oldest first, and whether the account is closed. */
export const accountClosure = { attempts: [] as string[], closed: false };

export function resetAccountClosure() {
  accountClosure.attempts = [];
  accountClosure.closed = false;
}

/** What GET /me/export answers for the fake server's account. */
export function buildExport(): ExportBody {
  return {
    schemaVersion: 1,
    exportedAt: '2026-11-27T10:00:00Z',
    profile: db.user,
    account: {
      id: '0193f1c2-0000-7000-8000-00000000a11c',
      receiveNewsletter: false,
      twoFactorEnabled: db.user.mfaEnabled,
      emailVerifiedAt: db.user.verifiedAt,
      passwordChangedAt: db.user.passwordChangedAt,
      lockedAt: null,
      lockedReason: null,
    },
    signIns: [],
    passkeys: [],
    transactions: db.transactions,
    orders: [],
    redemptions: [],
    tickets: [],
    mails: [],
  };
}

/** As the gateway: only the fields sent change, and each is checked as the identity service does. */
export const profileHandlers: HttpHandler[] = [
  http.patch('/me/update-profile', async ({ request, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    if (!hasValidXsrf(request)) return csrfMismatch();
    const body = await request.json();
    const errors: Record<string, string[]> = {};
    const name = ['firstName', 'middleName', 'lastName'].some((field) => field in body);
    if (name && !body.firstName?.trim()) errors.firstName = ['Hãy nhập tên của bạn'];
    if (name && !body.lastName?.trim()) errors.lastName = ['Hãy nhập họ của bạn'];
    if ('language' in body && body.language !== 'vi-VN') errors.language = ['Ngôn ngữ bạn chọn chưa được hỗ trợ.'];
    if ('phoneNumber' in body) {
      const phone = body.phoneNumber?.replace(/\s+/g, '') ?? '';
      if (!phone) errors.phoneNumber = ['Hãy nhập vào số điện thoại của bạn'];
      else if (phone.length > 15 || !/^\+?\d{8,}$/.test(phone)) errors.phoneNumber = ['Số điện thoại không hợp lệ'];
    }
    if (Object.keys(errors).length > 0) return validationError(errors);
    profileUpdates.push(body);
    // As the gateway, a field sent as null is one not sent: it stays as it is.
    const change = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null)) as Partial<typeof db.user>;
    db.user = { ...db.user, ...change };
    return response(200).json(db.user);
  }),

  http.get('/me/export', ({ request, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    const day = '20261127';
    return response(200).json(buildExport(), {
      headers: {
        'Content-Disposition': `attachment; filename="kid-du-lieu-ca-nhan-${db.user.username}-${day}.json"`,
        'Cache-Control': 'no-store',
      },
    });
  }),

  // As the gateway: the password first, then the account closes and every session ends.
  http.post('/me/delete', async ({ request, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    if (!hasValidXsrf(request)) return csrfMismatch();
    const { password = '' } = await request.json();
    accountClosure.attempts.push(password);
    if (!password) return validationError({ password: [DELETE_PASSWORD_REQUIRED] });
    if (password !== db.password) return validationError({ password: [DELETE_PASSWORD_WRONG] });
    accountClosure.closed = true;
    db.signedIn = false;
    return response(200).json({ closed: true, eraseAfter: ERASE_AFTER });
  }),
];
