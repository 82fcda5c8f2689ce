import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import type { SecurityCodeAction } from '@/types/api';

export type SecurityCodeSent = { message: string };

/**
 * POST /me/security-code/: mails a six-character code for `action` to the account's address
 * and answers the text to show ('Mã bảo mật đã được gửi đến email của bạn!'); 429 with a
 * message when asked again for the same action within a minute.
 */
export async function sendSecurityCode(action: SecurityCodeAction): Promise<SecurityCodeSent> {
  await getCsrfCookie();
  const response = await api.post<SecurityCodeSent>('/me/security-code/', { action });
  return response.data;
}

/** Nothing the app holds changes until the code is used, so nothing is refreshed. */
export function useSendSecurityCode() {
  return useMutation({ mutationFn: sendSecurityCode });
}
