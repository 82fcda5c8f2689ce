import { http, HttpResponse, type HttpHandler, type JsonBodyType, type PathParams } from 'msw';

import type {
  ConfirmBody,
  DisableBody,
  Enrolment,
  ErrorBody,
  PasswordBody,
  RecoveryCodes,
  SecondFactorBody,
  User,
} from '@/types/api-schema';

import { API, csrfMismatch, hasValidXsrf, record, unauthenticated, validationError } from './common';
import { db } from './db';

/** The gateway's and identity service's wording (contracts/src/messages/two_factor.rs). */
export const TWO_FACTOR_CODE_REQUIRED = 'Hãy nhập mã xác thực.';
export const TWO_FACTOR_CODE_WRONG = 'Mã xác thực không chính xác hoặc đã được sử dụng.';
export const TWO_FACTOR_ALREADY_ENABLED = 'Xác thực hai lớp đã được bật cho tài khoản này.';
export const TWO_FACTOR_NOT_STARTED = 'Hãy bắt đầu lại việc bật xác thực hai lớp.';
export const TWO_FACTOR_NOT_ENABLED = 'Xác thực hai lớp chưa được bật cho tài khoản này.';
export const SIGN_IN_EXPIRED = 'Phiên đăng nhập đã hết hạn, hãy đăng nhập lại.';
/** As security-handlers' PASSWORD_NOW_REQUIRED and PASSWORD_NOW_WRONG. */
export const TWO_FACTOR_PASSWORD_REQUIRED = 'Hãy nhập mật khẩu hiện tại của bạn.';
export const TWO_FACTOR_PASSWORD_WRONG = 'Mật khẩu hiện tại không chính xác.';
/** As handlers.ts's TOO_MANY_REQUESTS (not imported from there: it imports this module). */
export const TWO_FACTOR_TOO_MANY = 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.';

/** The secret the fake server hands out, and its otpauth URL for the QR code. */
export const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const totpUrl = (username: string) =>
  `otpauth://totp/Kid:${username}?secret=${TOTP_SECRET}&issuer=Kid&algorithm=SHA1&digits=6&period=30`;

/**
 * The codes the fake authenticator app shows, as if one per 30-second step: each is accepted
 * once (as the server, which never takes a step twice); any other six digits are wrong.
 */
export const TOTP_CODES = ['246810', '135791', '864209', '502468', '719355'] as const;

/** The ten recovery codes the fake server answers on confirming, each usable once. */
export const RECOVERY_CODES = [
  'ABCD-EFGH-JKMN-PQRS',
  'BCDE-FGHJ-KMNP-QRST',
  'CDEF-GHJK-MNPQ-RSTU',
  'DEFG-HJKM-NPQR-STUV',
  'EFGH-JKMN-PQRS-TUVW',
  'FGHJ-KMNP-QRST-UVWX',
  'GHJK-MNPQ-RSTU-VWXY',
  'HJKM-NPQR-STUV-WXYZ',
  'JKMN-PQRS-TUVW-XYZA',
  'KMNP-QRST-UVWX-YZAB',
] as const;

/** Wrong codes per player allowed within the window, then 429 until the window ends. */
export const SECOND_FACTOR_FREE_ATTEMPTS = 5;
export const SECOND_FACTOR_WINDOW_MS = 15 * 60_000;
/** How long a sign-in whose password was right waits for its code. */
export const SECOND_FACTOR_WAIT_MS = 5 * 60_000;

/**
 * The fake server's two-factor state. Whether it is on is db.user.mfaEnabled; an account set
 * up with it on (buildUser({ mfaEnabled: true })) takes TOTP_CODES and RECOVERY_CODES.
 */
export const twoFactorDb = {
  /** Started and not confirmed yet: the secret handed out; null when none. */
  pendingSecret: null as string | null,
  /** The app codes already taken (each once). */
  usedCodes: [] as string[],
  /** The recovery codes not used yet, as the server compares them (no dashes, upper case). */
  recoveryCodes: RECOVERY_CODES.map((code) => normalize(code)),
  /** Date.now() of each wrong guess (a code, or starting's or disabling's password) within the window. */
  failures: [] as number[],
  /** The sign-in waiting for its code: when its password was right, and 'remember me'. */
  pendingSignIn: null as { at: number; remember: boolean } | null,
  /** The JSON bodies the two-factor calls were sent, oldest first. */
  bodies: [] as { path: string; body: unknown }[],
};

export function resetTwoFactorDb() {
  twoFactorDb.pendingSecret = null;
  twoFactorDb.usedCodes = [];
  twoFactorDb.recoveryCodes = RECOVERY_CODES.map((code) => normalize(code));
  twoFactorDb.failures = [];
  twoFactorDb.pendingSignIn = null;
  twoFactorDb.bodies = [];
}

/** As the identity service reads a typed code: case, spaces and dashes ignored. */
function normalize(typed: string) {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

/** Called by POST /auth/login (handlers.ts) when the password is right and two-factor is on. */
export function awaitSecondFactor(remember: boolean) {
  twoFactorDb.pendingSignIn = { at: Date.now(), remember };
}

const json = <T extends JsonBodyType>(body: T, status = 200, headers?: HeadersInit) =>
  HttpResponse.json<T>(body, { status, headers });
const precondition = (message: string) => json<ErrorBody>({ message }, 409);

/** 429 with the seconds until the oldest wrong guess of the window leaves it; null when not throttled. */
function throttled() {
  const now = Date.now();
  twoFactorDb.failures = twoFactorDb.failures.filter((at) => now - at < SECOND_FACTOR_WINDOW_MS);
  if (twoFactorDb.failures.length < SECOND_FACTOR_FREE_ATTEMPTS) return null;
  const retryAfter = Math.ceil((twoFactorDb.failures[0]! + SECOND_FACTOR_WINDOW_MS - now) / 1000);
  return json<ErrorBody>({ message: TWO_FACTOR_TOO_MANY, errors: {} }, 429, { 'Retry-After': String(retryAfter) });
}

function wrongGuess(field: 'code' | 'password', message: string) {
  twoFactorDb.failures.push(Date.now());
  return validationError({ [field]: [message] });
}

/** Takes a code of an account with two-factor on, once: an app code or a recovery code. */
function redeem(typed: string): boolean {
  const code = normalize(typed);
  if (/^\d{6}$/.test(code)) {
    if (!(TOTP_CODES as readonly string[]).includes(code) || twoFactorDb.usedCodes.includes(code)) return false;
    twoFactorDb.usedCodes.push(code);
    return true;
  }
  if (!twoFactorDb.recoveryCodes.includes(code)) return false;
  twoFactorDb.recoveryCodes = twoFactorDb.recoveryCodes.filter((unused) => unused !== code);
  return true;
}

/** Why a state-changing /me call is refused before its body is looked at, if it is. */
function refusal(request: Request) {
  if (!db.signedIn) return unauthenticated();
  if (!hasValidXsrf(request)) return csrfMismatch();
  return null;
}

/** The JSON body, recorded; a field left out is read as empty. */
async function bodyOf<T>(request: Request, path: string): Promise<Partial<T>> {
  const body = (await request.json()) as Partial<T>;
  twoFactorDb.bodies.push({ path, body });
  return body;
}

/** An answer of `T`, or the gateway's error body. */
type Answer<T> = T | ErrorBody;

/**
 * POST (with the password) and DELETE /me/two-factor/totp, POST /me/two-factor/totp/confirm and
 * POST /auth/login/two-factor, as the gateway. docs/api/openapi.json does not describe them yet, so
 * they use MSW's own `http` with the hand-written types of api-schema.ts; once the document is
 * regenerated they move to the typed `http` of ./common.
 */
export const twoFactorHandlers: HttpHandler[] = [
  http.post<PathParams, PasswordBody, Answer<Enrolment>>(`${API}/me/two-factor/totp`, async ({ request }) => {
    record(request);
    const refused = refusal(request);
    if (refused) return refused;
    const { password = '' } = await bodyOf<PasswordBody>(request, '/me/two-factor/totp');
    const tooMany = throttled();
    if (tooMany) return tooMany;
    // The password first, as for a passkey: a session alone puts no app on the account.
    if (!password) return validationError({ password: [TWO_FACTOR_PASSWORD_REQUIRED] });
    if (password !== db.password) return wrongGuess('password', TWO_FACTOR_PASSWORD_WRONG);
    if (db.user.mfaEnabled) return precondition(TWO_FACTOR_ALREADY_ENABLED);
    // A new secret replaces one not yet confirmed.
    twoFactorDb.pendingSecret = TOTP_SECRET;
    return json<Enrolment>({ secret: TOTP_SECRET, otpauthUrl: totpUrl(db.user.username) });
  }),

  http.post<PathParams, ConfirmBody, Answer<RecoveryCodes>>(`${API}/me/two-factor/totp/confirm`, async ({ request }) => {
    record(request);
    const refused = refusal(request);
    if (refused) return refused;
    const { code = '' } = await bodyOf<ConfirmBody>(request, '/me/two-factor/totp/confirm');
    const tooMany = throttled();
    if (tooMany) return tooMany;
    if (!normalize(code)) return validationError({ code: [TWO_FACTOR_CODE_REQUIRED] });
    if (db.user.mfaEnabled || !twoFactorDb.pendingSecret) return precondition(TWO_FACTOR_NOT_STARTED);
    const typed = normalize(code);
    if (!/^\d{6}$/.test(typed) || !redeem(typed)) return wrongGuess('code', TWO_FACTOR_CODE_WRONG);
    twoFactorDb.pendingSecret = null;
    twoFactorDb.recoveryCodes = RECOVERY_CODES.map((recovery) => normalize(recovery));
    db.user = { ...db.user, mfaEnabled: true };
    return json<RecoveryCodes>({ recoveryCodes: [...RECOVERY_CODES] });
  }),

  http.delete<PathParams, DisableBody, Answer<null>>(`${API}/me/two-factor/totp`, async ({ request }) => {
    record(request);
    const refused = refusal(request);
    if (refused) return refused;
    const { password = '', code = '' } = await bodyOf<DisableBody>(request, '/me/two-factor/totp');
    const tooMany = throttled();
    if (tooMany) return tooMany;
    const errors: Record<string, string[]> = {};
    if (!password) errors.password = [TWO_FACTOR_PASSWORD_REQUIRED];
    if (!code.trim()) errors.code = [TWO_FACTOR_CODE_REQUIRED];
    if (Object.keys(errors).length > 0) return validationError(errors);
    // The password first; the code only after a right one.
    if (password !== db.password) return wrongGuess('password', TWO_FACTOR_PASSWORD_WRONG);
    if (!db.user.mfaEnabled) return precondition(TWO_FACTOR_NOT_ENABLED);
    if (!redeem(code)) return wrongGuess('code', TWO_FACTOR_CODE_WRONG);
    db.user = { ...db.user, mfaEnabled: false };
    return new HttpResponse(null, { status: 204 });
  }),

  http.post<PathParams, SecondFactorBody, Answer<User>>(`${API}/auth/login/two-factor`, async ({ request }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const { code = '' } = await bodyOf<SecondFactorBody>(request, '/auth/login/two-factor');
    const pending = twoFactorDb.pendingSignIn;
    if (!pending || Date.now() - pending.at > SECOND_FACTOR_WAIT_MS) {
      return validationError({ code: [SIGN_IN_EXPIRED] });
    }
    if (!code.trim()) return validationError({ code: [TWO_FACTOR_CODE_REQUIRED] });
    const tooMany = throttled();
    if (tooMany) return tooMany;
    if (!redeem(code)) return wrongGuess('code', TWO_FACTOR_CODE_WRONG);
    twoFactorDb.pendingSignIn = null;
    db.signedIn = true;
    return json<User>(db.user);
  }),
];
