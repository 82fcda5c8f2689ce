import { toApiError } from './api-client';

/** A captcha token for the form's action, or null when there is none (see `useCaptchaToken`). */
export type CaptchaTokenSource = () => Promise<string | null>;

/**
 * A password attempt (sign-in, password change): sent without a captcha token first, as the
 * spec asks for none. Once the username or address is past its free attempts the gateway
 * answers 429; then `getToken` is asked for a captcha token and the attempt is sent once more
 * with it. When there is no token or the second answer is a failure too, the call rejects with
 * that failure, whose message is the server's (e.g. 'Bạn thao tác quá nhanh, hãy thử lại sau
 * ít phút.').
 */
export async function retryWithCaptchaWhenThrottled<T>(
  send: (gReCaptchaToken?: string) => Promise<T>,
  getToken: CaptchaTokenSource,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (toApiError(error).status !== 429) throw error;
    const gReCaptchaToken = await getToken();
    if (!gReCaptchaToken) throw error;
    return send(gReCaptchaToken);
  }
}
