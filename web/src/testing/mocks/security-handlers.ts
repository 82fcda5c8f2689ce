import type { HttpHandler } from 'msw';
import { createOpenApiHttp, type ResponseResolver } from 'openapi-msw';

import { meetsPasswordLevel } from '@/lib/password-strength';
import type { Session } from '@/types/api-schema';
import type { paths } from '@/types/openapi.gen';

import { API, acceptsCaptcha, csrfMismatch, hasValidXsrf, http, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The gateway's and identity service's wording (gateway/src/api, services/identity/src). */
export const SECURITY_CODE_SENT = 'Mã bảo mật đã được gửi đến email của bạn!';
/** As handlers.ts's TOO_MANY_REQUESTS (not imported from there: it imports this module). */
export const SECURITY_TOO_MANY_REQUESTS = 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.';
/** As handlers.ts's CAPTCHA_REFUSED. */
export const SECURITY_CAPTCHA_REFUSED = 'Không xác minh được bạn không phải là người máy, hãy thử lại.';
export const CURRENT_PASSWORD_WRONG = 'Mật khẩu cũ không chính xác.';
/** An email change asks an unverified account for the password it has now. */
export const PASSWORD_NOW_REQUIRED = 'Hãy nhập mật khẩu hiện tại của bạn.';
export const PASSWORD_NOW_WRONG = 'Mật khẩu hiện tại không chính xác.';
export const PASSWORD_WEAK = 'Mật khẩu quá yếu, hãy chọn mật khẩu mạnh hơn: dùng cả chữ cái, chữ số và ký hiệu.';
export const EMAIL_SAME = 'Địa chỉ email mới phải khác địa chỉ hiện tại.';
export const SECURITY_CODE_WRONG = 'Mã bảo mật không chính xác hoặc đã hết hạn.';
export const SESSION_GONE = 'Phiên đăng nhập này không còn tồn tại.';
/** One code a minute per action, as the gateway's cooldown. */
export const SECURITY_CODE_INTERVAL_MS = 60_000;
/** The code the fake server mails for every action. */
export const SECURITY_CODE = '482913';

/** The actions a security code confirms (spec section 3), as the gateway takes them. */
const ACTIONS = [
  'confirm.email',
  'confirm.phone_number',
  'confirm.payment',
  'confirm.change_password',
  'confirm.change_email',
  'approve.login',
] as const;

type SecurityCodeAction = (typeof ACTIONS)[number];

const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
} as const;

let sessionCount = 0;

/** Another device unless told otherwise; each gets its own opaque handle. */
export function buildSession(overrides: Partial<Session> = {}): Session {
  sessionCount += 1;
  return {
    id: `9f2c4e7a${String(sessionCount).padStart(8, '0')}`,
    userAgent: UA.safariIphone,
    ip: '113.161.52.7',
    createdAt: '2026-11-20T02:00:00Z',
    lastSeenAt: '2026-11-21T03:30:00Z',
    current: false,
    remember: true,
    ...overrides,
  };
}

/** This browser (Chrome on Windows), an iPhone and a Mac, most recently used first. */
export function buildSessions(): Session[] {
  return [
    buildSession({
      userAgent: UA.chromeWindows,
      ip: '203.113.130.1',
      createdAt: '2026-11-22T09:00:00Z',
      lastSeenAt: '2026-11-22T10:00:00Z',
      current: true,
      remember: false,
    }),
    buildSession({ userAgent: UA.safariIphone, ip: '113.161.52.7', lastSeenAt: '2026-11-21T03:30:00Z' }),
    buildSession({ userAgent: UA.firefoxMac, ip: '14.161.20.9', lastSeenAt: '2026-11-15T14:05:00Z' }),
  ];
}

/** The fake server's /security state (change password, email change, sessions). */
export const securityDb = {
  /** The signed-in account's sessions as GET /me/sessions lists them. */
  sessions: buildSessions(),
  /** Per action, Date.now() of the last code mailed, for the one-a-minute limit. */
  codeSentAt: {} as Partial<Record<SecurityCodeAction, number>>,
  /** Per action, the unused code last mailed; a code is spent once accepted. */
  codes: {} as Partial<Record<SecurityCodeAction, string>>,
};

export function resetSecurityDb() {
  securityDb.sessions = buildSessions();
  securityDb.codeSentAt = {};
  securityDb.codes = {};
}

/** Why a state-changing /me call is refused before its body is looked at, if it is. */
function refusal(request: Request) {
  if (!db.signedIn) return unauthenticated();
  if (!hasValidXsrf(request)) return csrfMismatch();
  return null;
}

const length = (value: string) => [...value].length;

/** As services/identity's Email::parse: any top-level domain, at most 128 characters. */
const EMAIL = /^[^@\s]+@[^@\s.]+(?:\.[^@\s.]+)+$/;

/** POST /me/security-code/: mails the code for an action, at most one a minute per action. */
const sendSecurityCode: ResponseResolver<paths, '/me/security-code/', 'post'> = async ({ request, response }) => {
  record(request);
  const refused = refusal(request);
  if (refused) return refused;
  const { action } = await request.json();
  if (!ACTIONS.includes(action as SecurityCodeAction)) {
    return validationError({ action: ['Hành động cần xác nhận không hợp lệ.'] });
  }
  const known = action as SecurityCodeAction;
  const sentAt = securityDb.codeSentAt[known];
  if (sentAt !== undefined && Date.now() - sentAt < SECURITY_CODE_INTERVAL_MS) {
    const retryAfter = Math.ceil((sentAt + SECURITY_CODE_INTERVAL_MS - Date.now()) / 1000);
    return response(429).json({ message: SECURITY_TOO_MANY_REQUESTS }, { headers: { 'Retry-After': String(retryAfter) } });
  }
  securityDb.codeSentAt[known] = Date.now();
  securityDb.codes[known] = SECURITY_CODE;
  return response(200).json({ message: SECURITY_CODE_SENT });
};

/** The document names the path with its trailing slash only; this types the one without. */
const withoutTrailingSlash = createOpenApiHttp<{ '/me/security-code': paths['/me/security-code/'] }>({ baseUrl: API });

/** Handlers for POST /me/change-password, /me/security-code/, /me/change-email and /me/sessions. */
export const securityHandlers: HttpHandler[] = [
  http.post('/me/change-password', async ({ request, response }) => {
    record(request);
    const refused = refusal(request);
    if (refused) return refused;
    const { currentPassword = '', password = '', passwordConfirm = '' } = await request.json();
    const errors: Record<string, string[]> = {};
    if (!currentPassword) errors.currentPassword = ['Hãy nhập vào mật khẩu cũ.'];
    if (!password) errors.password = ['Hãy nhập vào mật khẩu mới của bạn.'];
    else if (length(password) < 8) errors.password = ['Mật khẩu phải có tối thiểu 8 ký tự.'];
    else if (length(password) > 128) errors.password = ['Mật khẩu không được dài quá 128 ký tự.'];
    else if (!meetsPasswordLevel(password, 'medium')) errors.password = [PASSWORD_WEAK];
    if (!passwordConfirm) errors.passwordConfirm = ['Hãy nhập vào mật khẩu xác nhận.'];
    else if (passwordConfirm !== password) errors.passwordConfirm = ['Mật khẩu xác nhận không trùng khớp.'];
    if (Object.keys(errors).length > 0) return validationError(errors);
    if (currentPassword !== db.password) return validationError({ currentPassword: [CURRENT_PASSWORD_WRONG] });
    db.password = password;
    db.user = { ...db.user, passwordChangedAt: new Date().toISOString() };
    // Every other session of the player is signed out.
    securityDb.sessions = securityDb.sessions.filter((session) => session.current);
    return response(204).empty();
  }),

  // The gateway routes the path with and without the trailing slash.
  withoutTrailingSlash.post('/me/security-code', sendSecurityCode),
  http.post('/me/security-code/', sendSecurityCode),

  http.post('/me/change-email', async ({ request, response }) => {
    record(request);
    const refused = refusal(request);
    if (refused) return refused;
    const { email: raw = '', securityCode = '', currentPassword = '', gReCaptchaToken = '' } = await request.json();
    if (!acceptsCaptcha(gReCaptchaToken, 'changeEmailFormSubmit')) {
      return validationError({ gReCaptchaToken: [SECURITY_CAPTCHA_REFUSED] });
    }
    const email = raw.trim();
    if (!email) return validationError({ email: ['Hãy nhập địa chỉ email của bạn'] });
    if (length(email) > 128 || !EMAIL.test(email)) {
      return validationError({ email: ['Địa chỉ email bạn nhập không hợp lệ'] });
    }
    if (email.toLowerCase() === db.user.email.toLowerCase()) return validationError({ email: [EMAIL_SAME] });
    // An address another account holds is not refused: only its owner is told, by mail.
    // A code is asked while the current address is verified, the current password otherwise.
    if (!db.user.verifiedAt) {
      if (!currentPassword) return validationError({ currentPassword: [PASSWORD_NOW_REQUIRED] });
      if (currentPassword !== db.password) return validationError({ currentPassword: [PASSWORD_NOW_WRONG] });
    } else {
      const code = securityCode.trim();
      if (!code) return validationError({ securityCode: ['Mã bảo mật không được bỏ trống'] });
      if (length(code) !== 6) return validationError({ securityCode: ['Mã bảo mật phải có 6 ký tự'] });
      if (code !== securityDb.codes['confirm.change_email']) {
        return validationError({ securityCode: [SECURITY_CODE_WRONG] });
      }
      delete securityDb.codes['confirm.change_email'];
    }
    db.user = { ...db.user, email, verifiedAt: null };
    return response(200).json(db.user);
  }),

  http.get('/me/sessions', ({ response }) =>
    // Not recorded in db.requests: the screen reads the list on every visit, and tests of other
    // screens' requests under /security do not expect it.
    db.signedIn ? response(200).json(securityDb.sessions) : unauthenticated(),
  ),

  http.post('/me/sessions/sign-out-others', ({ request, response }) => {
    record(request);
    const refused = refusal(request);
    if (refused) return refused;
    securityDb.sessions = securityDb.sessions.filter((session) => session.current);
    return response(204).empty();
  }),

  http.delete('/me/sessions/{handle}', ({ request, params, response }) => {
    record(request);
    const refused = refusal(request);
    if (refused) return refused;
    const session = securityDb.sessions.find((candidate) => candidate.id === params.handle);
    if (!session) return response(404).json({ message: SESSION_GONE });
    securityDb.sessions = securityDb.sessions.filter((candidate) => candidate !== session);
    if (session.current) db.signedIn = false;
    return response(204).empty();
  }),
];
