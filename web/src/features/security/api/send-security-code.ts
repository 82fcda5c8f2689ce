import { useMutation } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import type { CodeBody, Sent } from '@/types/api-schema';

/** The actions a security code confirms (spec section 3); the document types `action` as a string. */
export type SecurityCodeAction = Extract<
  | 'confirm.email'
  | 'confirm.phone_number'
  | 'confirm.payment'
  | 'confirm.change_password'
  | 'confirm.change_email'
  | 'approve.login',
  NonNullable<CodeBody['action']>
>;

/**
 * POST /me/security-code/: mails a six-character code for `action` to the account's address
 * and answers the text to show ('Mã bảo mật đã được gửi đến email của bạn!'); 429 with a
 * message when asked again for the same action within a minute.
 */
export async function sendSecurityCode(action: SecurityCodeAction): Promise<Sent> {
  await getCsrfCookie();
  return dataOf(await api.POST('/me/security-code/', { body: { action } }));
}

/** Nothing the app holds changes until the code is used, so nothing is refreshed. */
export function useSendSecurityCode() {
  return useMutation({ mutationFn: sendSecurityCode });
}
