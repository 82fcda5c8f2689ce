import { http, HttpResponse, type DefaultBodyType } from 'msw';

import { TEST_PASSWORD } from '../data';

import { db } from './db';

export const API = '/api';

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
        return HttpResponse.json(
          {
            message: 'Tên đăng nhập hoặc mật khẩu không đúng.',
            errors: { username: ['Tên đăng nhập hoặc mật khẩu không đúng.'] },
          },
          { status: 422 },
        );
      }
      db.signedIn = true;
      return new HttpResponse(null, { status: 204 });
    },
  ),

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
];
