import { HttpResponse } from 'msw';

import { meetsPasswordLevel } from '@/lib/password-strength';
import type { TwoFactorRequired } from '@/types/api-schema';

import { buildUser } from '../data';

import { acceptsCaptcha, csrfMismatch, hasValidXsrf, http, record, unauthenticated, validationError } from './common';
import { db } from './db';
import { giftcodeHandlers } from './giftcode-handlers';
import { passkeyHandlers } from './passkey-handlers';
import { paymentHandlers } from './payment-handlers';
import { ACCOUNT_CLOSED, accountClosure, profileHandlers } from './profile-handlers';
import { rechargeHandlers } from './recharge-handlers';
import { securityHandlers } from './security-handlers';
import { signInsHandlers } from './sign-ins-handlers';
import { staffFinanceHandlers } from './staff-finance-handlers';
import { staffHandlers } from './staff-handlers';
import { staffSupportHandlers } from './staff-support-handlers';
import { supportHandlers } from './support-handlers';
import { transactionsHandlers } from './transactions-handlers';
import { awaitSecondFactor, twoFactorHandlers } from './two-factor-handlers';

export const LOGIN_FAILED = 'Tên đăng nhập hoặc mật khẩu không chính xác.';
export const TOO_MANY_REQUESTS = 'Bạn thao tác quá nhanh, hãy thử lại sau ít phút.';
export const ALREADY_VERIFIED = 'Địa chỉ email của bạn đã được xác minh.';
export const VERIFICATION_LINK_INVALID = 'Đường dẫn xác minh không hợp lệ hoặc đã hết hiệu lực.';
export const CAPTCHA_REFUSED = 'Không xác minh được bạn không phải là người máy, hãy thử lại.';
/** What both recovery requests answer, whether or not an account matches. */
export const RECOVERY_NEUTRAL =
  'Nếu thông tin bạn nhập khớp với một tài khoản, chúng tôi sẽ gửi email cho bạn trong vài phút. Hãy kiểm tra cả hộp thư rác (spam).';
export const RESET_LINK_INVALID =
  'Đường dẫn của bạn không hợp lệ hoặc đã hết hiệu lực, hãy thử gửi lại yêu cầu nhận mật khẩu mới.';
/** The gateway's wording of a reset password that is not strong enough. */
export const RESET_PASSWORD_WEAK =
  'Mật khẩu chưa đủ mạnh, hãy chọn mật khẩu mạnh hơn: cần có ít nhất 3 loại ký tự, trong đó có ký hiệu.';
/** The identity service's wording of a password from its list of common and leaked ones. */
export const PASSWORD_COMMON =
  'Mật khẩu này quá phổ biến hoặc đã bị lộ trong các vụ rò rỉ dữ liệu, hãy chọn mật khẩu khác.';
/** One of that list's passwords that the form's own rules let through (case is ignored). */
const COMMON_PASSWORDS = ['password@123'];
/** The gateway sends at most one verification mail a minute. */
export const VERIFICATION_MAIL_INTERVAL_MS = 60_000;

export { API, captchaTokenFor, validationError } from './common';

export const handlers = [
  http.get('/auth/csrf-cookie', ({ request, response }) => {
    record(request);
    // jsdom keeps cookies per document; the real server sets this with Set-Cookie.
    document.cookie = `XSRF-TOKEN=${db.xsrfToken}; path=/`;
    return response(204).empty();
  }),

  http.post('/auth/login', async ({ request, response }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const body = await request.json();
    if (body.username !== db.user.username || body.password !== db.password) {
      return validationError({ username: [LOGIN_FAILED] });
    }
    // Only the right password is told that the account is closed.
    if (accountClosure.closed) return validationError({ username: [ACCOUNT_CLOSED] });
    if (db.user.mfaEnabled) {
      // As the gateway: a new session, not signed in until POST /auth/login/two-factor takes a code.
      db.signedIn = false;
      awaitSecondFactor(body.remember ?? false);
      // The document does not describe this answer yet (see two-factor-handlers.ts).
      return response.untyped(HttpResponse.json<TwoFactorRequired>({ twoFactorRequired: true }));
    }
    db.signedIn = true;
    return response(200).json(db.user);
  }),

  http.post('/auth/register', async ({ request, response }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const body = await request.json();
    if (body.gReCaptchaToken !== 'dev-captcha') return validationError({ gReCaptchaToken: [CAPTCHA_REFUSED] });
    const errors: Record<string, string[]> = {};
    if (body.email === db.user.email) errors.email = ['Địa chỉ email này đã được sử dụng.'];
    if (body.username === db.user.username) errors.username = ['Tên đăng nhập này đã được sử dụng.'];
    if (COMMON_PASSWORDS.includes((body.password ?? '').toLowerCase())) errors.password = [PASSWORD_COMMON];
    if (Object.keys(errors).length > 0) return validationError(errors);
    // As the gateway: a new account has no name or phone number yet, and an unverified address.
    db.user = buildUser({
      username: body.username ?? '',
      email: body.email ?? '',
      dob: body.dob ?? '',
      verifiedAt: null,
      firstName: '',
      lastName: '',
      phoneNumber: '',
    });
    db.signedIn = true;
    return response(201).json(db.user);
  }),

  http.post('/auth/logout', ({ request, response }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    db.signedIn = false;
    return response(204).empty();
  }),

  http.post('/auth/email-verification/send', ({ request, response }) => {
    record(request);
    if (!db.signedIn) return unauthenticated();
    if (!hasValidXsrf(request)) return csrfMismatch();
    // As the gateway: the one-a-minute limit counts every request, then the address is checked.
    const { sentAt } = db.emailVerification;
    if (sentAt !== null && Date.now() - sentAt < VERIFICATION_MAIL_INTERVAL_MS) {
      const retryAfter = Math.ceil((sentAt + VERIFICATION_MAIL_INTERVAL_MS - Date.now()) / 1000);
      return response(429).json({ message: TOO_MANY_REQUESTS }, { headers: { 'Retry-After': String(retryAfter) } });
    }
    db.emailVerification.sentAt = Date.now();
    if (db.user.verifiedAt) return response(409).json({ message: ALREADY_VERIFIED });
    return response(204).empty();
  }),

  // Public: works signed in or not; the token alone says whose address it verifies.
  http.put('/auth/email-verification', async ({ request, response }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const { token } = await request.json();
    db.emailVerification.attempts.push(String(token));
    if (!token || token !== db.emailVerification.token) {
      return validationError({ token: [VERIFICATION_LINK_INVALID] });
    }
    db.emailVerification.token = null;
    db.user = { ...db.user, verifiedAt: new Date().toISOString() };
    return response(204).empty();
  }),

  // Recovery: the same neutral answer whether or not an account matches.
  http.post('/auth/reset-password/send-email', async ({ request, response }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const { username = '', gReCaptchaToken = '' } = await request.json();
    if (!acceptsCaptcha(gReCaptchaToken, 'forgotPasswordFormSubmit')) {
      return validationError({ gReCaptchaToken: [CAPTCHA_REFUSED] });
    }
    if ([...username.trim()].length < 4) {
      return validationError({ username: ['Tên đăng nhập phải có tối thiểu 4 ký tự.'] });
    }
    db.recovery.resetEmails.push({ username, gReCaptchaToken });
    return response(200).json({ message: RECOVERY_NEUTRAL });
  }),

  http.post('/auth/recover-username', async ({ request, response }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const { email = '', gReCaptchaToken = '' } = await request.json();
    if (!acceptsCaptcha(gReCaptchaToken, 'forgotUsernameFormSubmit')) {
      return validationError({ gReCaptchaToken: [CAPTCHA_REFUSED] });
    }
    if (!email.trim()) return validationError({ email: ['Hãy nhập địa chỉ email của bạn'] });
    if (!/^[^@\s]+@[^@\s]+$/.test(email.trim())) return validationError({ email: ['Địa chỉ email không hợp lệ'] });
    db.recovery.usernameEmails.push({ email, gReCaptchaToken });
    return response(200).json({ message: RECOVERY_NEUTRAL });
  }),

  http.get('/auth/reset-password/{token}', ({ request, params, response }) => {
    record(request);
    db.recovery.checks.push(params.token);
    if (params.token !== db.recovery.resetToken) {
      return response(404).json({ message: RESET_LINK_INVALID });
    }
    return response(200).json({ valid: true });
  }),

  http.post('/auth/reset-password', async ({ request, response }) => {
    record(request);
    if (!hasValidXsrf(request)) return csrfMismatch();
    const { token, password = '', passwordConfirm = '' } = await request.json();
    if (!token || token !== db.recovery.resetToken) return validationError({ token: [RESET_LINK_INVALID] });
    const errors: Record<string, string[]> = {};
    if (!password) errors.password = ['Hãy nhập mật khẩu mới'];
    else if ([...password].length < 8) errors.password = ['Mật khẩu phải có tối thiểu 8 ký tự'];
    else if (!meetsPasswordLevel(password, 'strong')) errors.password = [RESET_PASSWORD_WEAK];
    if (!passwordConfirm) errors.passwordConfirm = ['Hãy nhập mật khẩu xác nhận'];
    else if (passwordConfirm !== password) errors.passwordConfirm = ['Mật khẩu xác nhận không trùng khớp'];
    if (Object.keys(errors).length > 0) return validationError(errors);
    // Single use, and every session of the account ends.
    db.recovery.resetToken = null;
    db.password = password;
    db.signedIn = false;
    return response(204).empty();
  }),

  http.get('/me', ({ request, response }) => {
    record(request);
    return db.signedIn ? response(200).json(db.user) : unauthenticated();
  }),

  http.get('/payment/transaction-history', ({ request, response }) => {
    record(request);
    return db.signedIn ? response(200).json(db.transactions.slice(0, 10)) : unauthenticated();
  }),
  ...profileHandlers,
  ...securityHandlers,
  ...twoFactorHandlers,
  ...passkeyHandlers,
  ...signInsHandlers,
  ...paymentHandlers,
  ...rechargeHandlers,
  ...transactionsHandlers,
  ...giftcodeHandlers,
  ...staffHandlers,
  ...staffSupportHandlers,
  ...staffFinanceHandlers,
  ...supportHandlers,
];
