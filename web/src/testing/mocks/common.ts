import { HttpResponse } from 'msw';

import { db } from './db';

export const API = '/api';

/** The gateway's 422 body: the first message as `message`, and every field's messages. */
export function validationError(errors: Record<string, string[]>) {
  const message = Object.values(errors)[0]?.[0] ?? 'Dữ liệu không hợp lệ.';
  return HttpResponse.json({ message, errors }, { status: 422 });
}

/**
 * As the gateway's development verifier: it accepts 'dev-captcha' (what the app sends without
 * a site key). Tests that stand in for reCAPTCHA hand out `captcha:{action}`, accepted only for
 * that action, so a token asked for the wrong action is refused as the real verifier would.
 */
export const captchaTokenFor = (action: string) => `captcha:${action}`;
export const acceptsCaptcha = (token: unknown, action: string) => token === 'dev-captcha' || token === captchaTokenFor(action);

export const unauthenticated = () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
export const csrfMismatch = () => HttpResponse.json({ message: 'CSRF token mismatch.' }, { status: 419 });

export function hasValidXsrf(request: Request) {
  return request.headers.get('X-XSRF-TOKEN') === db.xsrfToken;
}

export function record(request: Request) {
  db.requests.push(`${request.method} ${new URL(request.url).pathname}`);
}
