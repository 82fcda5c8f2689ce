import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import { m } from '@/paraglide/messages';
import type { Enrolment, PasswordBody } from '@/types/api-schema';

/** The current password, which starting asks for. */
export const startTwoFactorInputSchema = z.object({
  password: z.string().min(1, m['security.twoFactor.validation.passwordRequired']()),
});

export type StartTwoFactorInput = z.infer<typeof startTwoFactorInputSchema>;
export type StartTwoFactorField = keyof StartTwoFactorInput;

/**
 * POST /me/two-factor/totp: the current password first (a session alone cannot put an app on
 * the account), then a new secret for the authenticator app (replacing one not yet confirmed),
 * with its otpauth:// URL for the QR code. 422 with errors.password (missing or wrong), 429
 * with Retry-After after too many wrong passwords, 409 with a message when two-factor is
 * already on. Two-factor stays off until the secret is confirmed with a code.
 */
export async function startTwoFactor(input: StartTwoFactorInput): Promise<Enrolment> {
  const body: PasswordBody = startTwoFactorInputSchema.parse(input);
  await getCsrfCookie();
  return dataOf(await api.POST('/me/two-factor/totp', { body }));
}

/** Nothing the app holds changes until a code confirms the secret, so nothing is refreshed. */
export function useStartTwoFactor() {
  return useMutation({ mutationFn: startTwoFactor });
}
