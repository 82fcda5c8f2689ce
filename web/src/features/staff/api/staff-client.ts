import type { Middleware } from 'openapi-fetch';

import { apiErrorOf, createApiClient, echoXsrf, toApiError } from '@/lib/api-client';

import { requestReauthentication } from '../utils/reauth-requests';

/** The `code` of a 403 that an action moving money needs the password or app code again. */
export const REAUTH_REQUIRED = 'reauth_required';

/** A 403 whose body says `code: reauth_required`. */
export function isReauthRequired(error: unknown): boolean {
  const apiError = toApiError(error);
  const data: unknown = apiError.data;
  return (
    apiError.status === 403 &&
    typeof data === 'object' &&
    data !== null &&
    Reflect.get(data, 'code') === REAUTH_REQUIRED
  );
}

/** The 403s whose re-authentication the member gave up (closed the dialog). */
const givenUp = new WeakSet<object>();

/** A call the member chose not to re-authenticate for: nothing more to tell them. */
export const isReauthGivenUp = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && givenUp.has(error);

let unauthorizedHandler: (() => void) | undefined;

/**
 * Called when a console call other than sign-in and GET /staff/me answers 401: the session ended
 * (15 minutes unused, signed out elsewhere, the member disabled). The console reads /staff/me
 * again, and its guard then sends the browser to the sign-in page.
 */
export function setStaffUnauthorizedHandler(handler: (() => void) | undefined) {
  unauthorizedHandler = handler;
}

const STAFF_XSRF_COOKIE = 'STAFF-XSRF-TOKEN';

/** Each call as it was first sent (its body unread), by openapi-fetch's id for the call. */
const sent = new Map<string, Request>();

/**
 * The console's retries, before an answer becomes an ApiError. A 419 (the XSRF token missing or
 * stale: a cookie cleared, a session replaced) gets a fresh token, then the call once more; a
 * 403 `reauth_required` asks the member to re-authenticate, then sends the call once more. Each
 * at most once per call; the call is sent again exactly as it was, but for the XSRF header,
 * read afresh from the cookie.
 */
const retries: Middleware = {
  onRequest: ({ request, id }) => {
    sent.set(id, request.clone());
  },
  onError: ({ id }) => {
    sent.delete(id);
  },
  onResponse: async ({ response, id, options }) => {
    const original = sent.get(id);
    sent.delete(id);
    if (!original) return undefined;
    const sendAgain = () => {
      const again = original.clone();
      echoXsrf(again, STAFF_XSRF_COOKIE);
      return options.fetch(again);
    };
    const done = { csrf: false, reauth: false };
    let answer = response;
    for (;;) {
      if (answer.status === 419 && !done.csrf) {
        done.csrf = true;
        await getStaffCsrfCookie();
        answer = await sendAgain();
        continue;
      }
      if (answer.status === 403 && !done.reauth) {
        const error = await apiErrorOf(answer);
        if (isReauthRequired(error)) {
          if (!(await requestReauthentication(error.message))) {
            givenUp.add(error);
            throw error;
          }
          done.reauth = true;
          answer = await sendAgain();
          continue;
        }
      }
      return answer === response ? undefined : answer;
    }
  },
};

/**
 * The console's HTTP client: as the player's (lib/api-client.ts), but with the console's own
 * cookies, the session cookie `kid_staff_session` and the XSRF cookie `STAFF-XSRF-TOKEN`, so a
 * browser signed in as a player and as staff keeps the two apart. Failed calls reject with
 * `ApiError`.
 *
 * Re-authentication before money moves: a call that answers 403 `code: reauth_required` opens
 * the console's "Xác thực lại" dialog (components/reauth-dialog.tsx, in the console's layout),
 * and once the member's password or app code has been taken, is sent once more, exactly as it
 * was (the same body and headers, so an Idempotency-Key too). A page that moves money needs to
 * do nothing for it: call `staffApi` in a mutation as usual, and its promise settles with the
 * retried call's answer. If the member closes the dialog the call rejects with the 403
 * (`isReauthGivenUp`), for which `staffFailureText` says nothing. A 403 without `code` is the
 * member's role refused: show its message (`staffFailureText` in the form's alert, or
 * `useStaffFailureToast`).
 */
export const staffApi = createApiClient({
  xsrfCookieName: STAFF_XSRF_COOKIE,
  onUnauthorized: () => unauthorizedHandler?.(),
  isAuthCall: (path) => /^\/staff\/(auth\/|me$)/.test(path),
  middleware: [retries],
});

/** Sets the STAFF-XSRF-TOKEN cookie that the sign-in form's POST must echo. */
export async function getStaffCsrfCookie(): Promise<void> {
  await staffApi.GET('/staff/auth/csrf-cookie');
}
