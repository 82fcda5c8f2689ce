import { http, HttpResponse, type HttpHandler, type JsonBodyType, type PathParams } from 'msw';

import type { EndSessionBody, ErrorBody, SessionEnded, SignIn } from '@/types/api-schema';

import { API, csrfMismatch, hasValidXsrf, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The gateway's wording (contracts/src/messages/links.rs, MSG_INVALID_END_LINK). */
export const END_SESSION_LINK_INVALID =
  'Đường dẫn đăng xuất không hợp lệ, đã được dùng hoặc đã hết hiệu lực. Hãy đăng nhập và xem các phiên đăng nhập trong trang Bảo mật tài khoản.';

/** The token of the new-device mail's link the fake server last mailed. */
export const END_SESSION_TOKEN = 'f4a8c2d1-end-session-token';

let signInCount = 0;

/** A sign-in with the password from Chrome on Windows unless told otherwise; each gets its own id. */
export function buildSignIn(overrides: Partial<SignIn> = {}): SignIn {
  signInCount += 1;
  return {
    id: `0194a7b0-0000-7000-8000-${String(signInCount).padStart(12, '0')}`,
    occurredAt: '2026-11-22T09:00:00Z',
    ip: '203.113.130.1',
    device: 'Chrome 126 trên Windows 10',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    method: 'password',
    succeeded: true,
    failure: null,
    ...overrides,
  };
}

/**
 * Newest first: a sign-in from an iPhone with a code from the app after a wrong one, a wrong
 * password on a Mac, then this computer's sign-in with a recovery code and the sign-up.
 */
export function buildSignIns(): SignIn[] {
  const iphone = {
    ip: '113.161.52.7',
    device: 'Safari 17 trên iPhone',
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  };
  return [
    buildSignIn({ ...iphone, occurredAt: '2026-11-22T10:05:00Z', method: 'totp' }),
    buildSignIn({ ...iphone, occurredAt: '2026-11-22T10:04:00Z', method: 'totp', succeeded: false, failure: 'wrongCode' }),
    buildSignIn({
      occurredAt: '2026-11-21T14:30:00Z',
      ip: '14.161.20.9',
      device: 'Firefox 127 trên macOS',
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
      succeeded: false,
      failure: 'wrongPassword',
    }),
    buildSignIn({ occurredAt: '2026-11-20T08:00:00Z', method: 'recoveryCode' }),
    buildSignIn({ occurredAt: '2026-11-19T07:00:00Z' }),
  ];
}

/** The fake server's sign-in history and new-device link. */
export const signInsDb = {
  /** The signed-in account's history as GET /me/sign-ins lists it (the server keeps 50). */
  signIns: buildSignIns(),
  /** The single-use token POST /auth/end-session accepts; null once used. */
  endSessionToken: END_SESSION_TOKEN as string | null,
  /** Whether the session the link names is still signed in (false: it had ended already). */
  sessionLive: true,
  /** The tokens POST /auth/end-session was sent, oldest first. */
  attempts: [] as string[],
};

export function resetSignInsDb() {
  signInsDb.signIns = buildSignIns();
  signInsDb.endSessionToken = END_SESSION_TOKEN;
  signInsDb.sessionLive = true;
  signInsDb.attempts = [];
}

const json = <T extends JsonBodyType>(body: T, status = 200) => HttpResponse.json<T>(body, { status });

/** An answer of `T`, or the gateway's error body. */
type Answer<T> = T | ErrorBody;

/**
 * GET /me/sign-ins and POST /auth/end-session, as the gateway (gateway/src/api/sign_ins.rs).
 * docs/api/openapi.json does not describe them yet, so they use MSW's own `http` with the
 * hand-written types of api-schema.ts; once the document is regenerated they move to the
 * typed `http` of ./common.
 */
export const signInsHandlers: HttpHandler[] = [
  // Not recorded in db.requests: the screen reads the list on every visit, as GET /me/sessions.
  http.get<PathParams, never, Answer<SignIn[]>>(`${API}/me/sign-ins`, () =>
    db.signedIn ? json<SignIn[]>(signInsDb.signIns.slice(0, 50)) : unauthenticated(),
  ),

  // Public: the token alone says which session it ends.
  http.post<PathParams, EndSessionBody, Answer<SessionEnded>>(`${API}/auth/end-session`, async ({ request }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const { token = '' } = (await request.json()) as Partial<EndSessionBody>;
    signInsDb.attempts.push(String(token));
    if (!token || token !== signInsDb.endSessionToken) return validationError({ token: [END_SESSION_LINK_INVALID] });
    signInsDb.endSessionToken = null;
    const ended = signInsDb.sessionLive;
    signInsDb.sessionLive = false;
    return json<SessionEnded>({ ended });
  }),
];
