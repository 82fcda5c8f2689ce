import { http, HttpResponse, type DefaultBodyType } from 'msw';

import { buildUser, TEST_PASSWORD } from '../data';

import { db } from './db';

export const API = '/api';

export const LOGIN_FAILED = 'Tên đăng nhập hoặc mật khẩu không chính xác.';

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
      if (!hasValidXsrf(request)) {
        return HttpResponse.json({ message: 'CSRF token mismatch.' }, { status: 419 });
      }
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
    if (!hasValidXsrf(request)) {
      return HttpResponse.json({ message: 'CSRF token mismatch.' }, { status: 419 });
    }
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
    if (!hasValidXsrf(request)) {
      return HttpResponse.json({ message: 'CSRF token mismatch.' }, { status: 419 });
    }
    db.signedIn = false;
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
