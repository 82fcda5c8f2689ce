import type { HttpHandler } from 'msw';

import type { ProfileBody } from '@/types/api-schema';

import { csrfMismatch, hasValidXsrf, http, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The bodies PATCH /me/update-profile accepted, oldest first. */
export const profileUpdates: ProfileBody[] = [];

export function resetProfileUpdates() {
  profileUpdates.length = 0;
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
];
