import { toApiError } from '@/lib/api-client';
import { failureText } from '@/lib/failure-text';
import { m } from '@/paraglide/messages';

/** The server's own `message`, when its error body has one. */
export function serverMessage(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || !('message' in data)) return null;
  const { message } = data;
  return typeof message === 'string' && message.trim() ? message : null;
}

/**
 * What the message area says about a failed coin top-up (spec section 8): on 422 whatever the
 * fields do not show; otherwise the server's message, or, when it sent none (an empty 5xx, a
 * lost connection), 'Lỗi không xác định…' with the HTTP status or the client's code
 * ('ERR_NETWORK', 'ECONNABORTED').
 */
export function coinRechargeFailureText(error: unknown, formFields: readonly string[]): string | null {
  if (!error) return null;
  const apiError = toApiError(error);
  if (apiError.status === 422) return failureText(apiError, formFields);
  const message = serverMessage(apiError.data);
  if (message) return message;
  const errorCode = apiError.status ?? apiError.code ?? apiError.name;
  return m['recharge.unknownError']({ errorCode });
}
