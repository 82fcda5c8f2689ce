import { HttpResponse } from 'msw';
import { createOpenApiHttp } from 'openapi-msw';

import type { ErrorBody } from '@/types/api-schema';
import type { paths } from '@/types/openapi.gen';

import { db } from './db';

/** Where the app's clients send their calls in tests (env.API_URL without VITE_API_URL). */
export const API = '/api';

/**
 * MSW's `http`, typed by the gateway's OpenAPI document (docs/api/openapi.json): a handler takes
 * only a documented path (relative to API), and its request body and `response(status)` bodies
 * are the document's, so a changed field breaks `tsc`.
 */
export const http = createOpenApiHttp<paths>({ baseUrl: API });

/** The gateway's error body with `status`. */
const errorResponse = (status: number, message: string) => HttpResponse.json<ErrorBody>({ message }, { status });

/** The gateway's 422 body: the first message as `message`, and every field's messages. */
export function validationError(errors: Record<string, string[]>) {
  const message = Object.values(errors)[0]?.[0] ?? 'Dữ liệu không hợp lệ.';
  return HttpResponse.json<ErrorBody>({ message, errors }, { status: 422 });
}

/**
 * As the gateway's development verifier: it accepts 'dev-captcha' (what the app sends without
 * a site key). Tests that stand in for reCAPTCHA hand out `captcha:{action}`, accepted only for
 * that action, so a token asked for the wrong action is refused as the real verifier would.
 */
export const captchaTokenFor = (action: string) => `captcha:${action}`;
export const acceptsCaptcha = (token: unknown, action: string) => token === 'dev-captcha' || token === captchaTokenFor(action);

export const unauthenticated = () => errorResponse(401, 'Unauthenticated.');
export const csrfMismatch = () => errorResponse(419, 'CSRF token mismatch.');

export function hasValidXsrf(request: Request) {
  return request.headers.get('X-XSRF-TOKEN') === db.xsrfToken;
}

export function record(request: Request) {
  db.requests.push(`${request.method} ${new URL(request.url).pathname}`);
}
