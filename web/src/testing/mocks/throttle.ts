import { http, HttpResponse } from 'msw';

import type { CaptchaAction } from '@/hooks/use-captcha';

import { acceptsCaptcha, record } from './common';
import { TOO_MANY_REQUESTS } from './handlers';
import { server } from './server';

/** The Retry-After (seconds) of a throttled password attempt. */
export const THROTTLE_RETRY_AFTER_SECONDS = 60;

/**
 * As the gateway once the username or address is past its free password attempts: a POST to
 * `path` (e.g. '/api/auth/login') without a captcha token valid for `action` is answered 429
 * with Retry-After and the throttling message; one with such a token is left to the fake
 * server, which checks the password as usual. Returns the JSON bodies sent, oldest first.
 */
export function throttlePasswordAttempts(path: string, action: CaptchaAction): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.post(path, async ({ request }) => {
      const body = (await request.clone().json()) as Record<string, unknown>;
      bodies.push(body);
      if (acceptsCaptcha(body.gReCaptchaToken, action)) return undefined;
      record(request);
      return HttpResponse.json(
        { message: TOO_MANY_REQUESTS, errors: {} },
        { status: 429, headers: { 'Retry-After': String(THROTTLE_RETRY_AFTER_SECONDS) } },
      );
    }),
  );
  return bodies;
}
