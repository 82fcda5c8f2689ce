import { http, HttpResponse, type DefaultBodyType } from 'msw';

import { buildUser, TEST_PASSWORD } from '../data';

import { db } from './db';

export const API = '/api';

export const LOGIN_FAILED = 'Tên đăng nhập hoặc mật khẩu không chính xác.';
export const TOO_MANY_REQUESTS = 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.';
export const ALREADY_VERIFIED = 'Địa chỉ email của bạn đã được xác minh.';
export const VERIFICATION_LINK_INVALID = 'Đường dẫn xác minh không hợp lệ hoặc đã hết hiệu lực.';
/** The gateway sends at most one verification mail a minute. */
export const VERIFICATION_MAIL_INTERVAL_MS = 60_000;

type RegisterBody = {
  email: string;
  receiveNewsletter: boolean;
  dob: string;
  username: string;
  password: string;
  passwordConfirm: string;
  gReCaptchaToken: string;
};

/** The gateway's 422 body: the first message as `message`, and every field's messages. */
export function validationError(errors: Record<string, string[]>) {
  const message = Object.values(errors)[0]?.[0] ?? 'Dữ liệu không hợp lệ.';
  return HttpResponse.json({ message, errors }, { status: 422 });
}

const unauthenticated = () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
const csrfMismatch = () => HttpResponse.json({ message: 'CSRF token mismatch.' }, { status: 419 });

function hasValidXsrf(request: Request) {
  return request.headers.get('X-XSRF-TOKEN') === db.xsrfToken;
}

function record(request: Request) {
  db.requests.push(`${request.method} ${new URL(request.url).pathname}`);
}

export const handlers = [
  http.get(`${API}/auth/csrf-cookie`, ({ request }) => {
    record(request);
    // jsdom keeps cookies per document; the real server sets this with Set-Cookie.
    document.cookie = `XSRF-TOKEN=${db.xsrfToken}; path=/`;
    return new HttpResponse(null, { status: 204 });
  }),

  http.post<never, { username?: string; password?: string; remember?: boolean }>(
    `${API}/auth/login`,
    async ({ request }) => {
      record(request);
      if (!hasValidXsrf(request)) return csrfMismatch();
      const body = await request.json();
      if (body.username !== db.user.username || body.password !== TEST_PASSWORD) {
        return validationError({ username: [LOGIN_FAILED] });
      }
      db.signedIn = true;
      return HttpResponse.json(db.user);
    },
  ),

  http.post<never, RegisterBody>(`${API}/auth/register`, async ({ request }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const body = await request.json();
    if (body.gReCaptchaToken !== 'dev-captcha') {
      return validationError({ gReCaptchaToken: ['Không xác minh được bạn không phải là người máy, hãy thử lại.'] });
    }
    const errors: Record<string, string[]> = {};
    if (body.email === db.user.email) errors.email = ['Địa chỉ email này đã được sử dụng.'];
    if (body.username === db.user.username) errors.username = ['Tên đăng nhập này đã được sử dụng.'];
    if (Object.keys(errors).length > 0) return validationError(errors);
    db.user = buildUser({
      username: body.username,
      email: body.email,
      dob: body.dob,
      verifiedAt: null,
      firstName: null,
      lastName: null,
      phoneNumber: null,
    });
    db.signedIn = true;
    return HttpResponse.json(db.user, { status: 201 });
  }),

  http.post(`${API}/auth/logout`, ({ request }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    db.signedIn = false;
    return new HttpResponse(null, { status: 204 });
  }),

  http.post(`${API}/auth/email-verification/send`, ({ request }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    if (!hasValidXsrf(request)) return csrfMismatch();
    // As the gateway: the one-a-minute limit counts every request, then the address is checked.
    const { sentAt } = db.emailVerification;
    if (sentAt !== null && Date.now() - sentAt < VERIFICATION_MAIL_INTERVAL_MS) {
      const retryAfter = Math.ceil((sentAt + VERIFICATION_MAIL_INTERVAL_MS - Date.now()) / 1000);
      return HttpResponse.json(
        { message: TOO_MANY_REQUESTS },
        { status: 429, headers: { 'Retry-After': String(retryAfter) } },
      );
    }
    db.emailVerification.sentAt = Date.now();
    if (db.user.verifiedAt) return HttpResponse.json({ message: ALREADY_VERIFIED }, { status: 409 });
    return new HttpResponse(null, { status: 204 });
  }),

  // Public: works signed in or not; the token alone says whose address it verifies.
  http.put<never, { token?: string }>(`${API}/auth/email-verification`, async ({ request }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const { token } = await request.json();
    db.emailVerification.attempts.push(String(token));
    if (!token || token !== db.emailVerification.token) {
      return validationError({ token: [VERIFICATION_LINK_INVALID] });
    }
    db.emailVerification.token = null;
    db.user = { ...db.user, verifiedAt: new Date().toISOString() };
    return new HttpResponse(null, { status: 204 });
  }),

  http.get<never, DefaultBodyType>(`${API}/me`, ({ request }) => {
    record(request);
    return db.signedIn ? HttpResponse.json(db.user) : unauthenticated();
  }),

  http.get(`${API}/payment/transaction-history`, ({ request }) => {
    record(request);
    return db.signedIn ? HttpResponse.json(db.transactions) : unauthenticated();
  }),
];
