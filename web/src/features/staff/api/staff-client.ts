import axios from 'axios';

import { REQUEST_TIMEOUT_MS } from '@/config/constants';
import { env, PRODUCT_ID } from '@/config/env';
import { toApiError } from '@/lib/api-client';

import { requestReauthentication } from '../utils/reauth-requests';

/** The `code` of a 403 that an action moving money needs the password or app code again. */
export const REAUTH_REQUIRED = 'reauth_required';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** What the console's client already did for this call: it is sent once more at most for each. */
    staffRetried?: { csrf?: boolean; reauth?: boolean };
  }
}

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

const isAuthCall = (url: string | undefined) => !!url && /^\/?staff\/(auth\/|me$)/.test(url);

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
export const staffApi = axios.create({
  baseURL: env.API_URL,
  withCredentials: true,
  timeout: REQUEST_TIMEOUT_MS,
  headers: {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
    'X-Product': PRODUCT_ID,
  },
  xsrfCookieName: 'STAFF-XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
  withXSRFToken: true,
});

/** Sets the STAFF-XSRF-TOKEN cookie that the sign-in form's POST must echo. */
export async function getStaffCsrfCookie(): Promise<void> {
  await staffApi.get('/staff/auth/csrf-cookie');
}

staffApi.interceptors.response.use(undefined, async (error: unknown) => {
  const apiError = toApiError(error);
  const config = axios.isAxiosError(error) ? error.config : undefined;
  const retried = config?.staffRetried ?? {};
  // 419: the XSRF token is missing or stale (a cookie cleared, a session replaced). A fresh one,
  // then the call once more.
  if (config && apiError.status === 419 && !retried.csrf) {
    await getStaffCsrfCookie();
    return staffApi.request({ ...config, staffRetried: { ...retried, csrf: true } });
  }
  if (config && isReauthRequired(apiError) && !retried.reauth) {
    if (await requestReauthentication(apiError.message)) {
      return staffApi.request({ ...config, staffRetried: { ...retried, reauth: true } });
    }
    givenUp.add(apiError);
    throw apiError;
  }
  if (apiError.status === 401 && !isAuthCall(config?.url)) unauthorizedHandler?.();
  throw apiError;
});
