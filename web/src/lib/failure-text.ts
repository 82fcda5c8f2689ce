import { toApiError } from '@/lib/api-client';

/**
 * The text of a failed recovery call that the form's fields do not show: the server's message,
 * or on 422 the first message for a field the form lacks (a refused captcha, say). Null when
 * every message sits beside its field.
 */
export function failureText(error: unknown, formFields: readonly string[]): string | null {
  if (!error) return null;
  const apiError = toApiError(error);
  if (apiError.status !== 422) return apiError.message;
  const entries = Object.entries(apiError.errors);
  const unplaced = entries.find(([field, messages]) => !formFields.includes(field) && messages[0]);
  if (unplaced) return unplaced[1][0] ?? null;
  return entries.some(([, messages]) => messages[0]) ? null : apiError.message;
}
