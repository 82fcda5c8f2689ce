import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';

/**
 * POST /auth/email-verification/send: mails the signed-in player a verification link. The
 * server answers 429 when asked again within a minute and 409 when the address is verified.
 */
export async function sendVerificationEmail(): Promise<void> {
  await getCsrfCookie();
  await api.POST('/auth/email-verification/send');
}

/** Nothing the app holds changes until the player opens the link, so nothing is refreshed. */
export function useSendVerificationEmail() {
  return useMutation({ mutationFn: sendVerificationEmail });
}
