import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import type { Enrolment } from '@/types/api-schema';

/**
 * POST /me/two-factor/totp: a new secret for the authenticator app (replacing one not yet
 * confirmed), with its otpauth:// URL for the QR code; 409 with a message when two-factor is
 * already on. Two-factor stays off until the secret is confirmed with a code.
 */
export async function startTwoFactor(): Promise<Enrolment> {
  await getCsrfCookie();
  const response = await api.post<Enrolment>('/me/two-factor/totp');
  return response.data;
}

/** Nothing the app holds changes until a code confirms the secret, so nothing is refreshed. */
export function useStartTwoFactor() {
  return useMutation({ mutationFn: startTwoFactor });
}
