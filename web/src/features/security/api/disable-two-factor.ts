import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';
import { m } from '@/paraglide/messages';
import type { DisableBody } from '@/types/api-schema';

/**
 * The password and a code: six digits from the app or a recovery code, which the server reads
 * ignoring case, spaces and dashes.
 */
export const disableTwoFactorInputSchema = z.object({
  password: z.string().min(1, m['security.twoFactor.validation.passwordRequired']()),
  code: z.string().trim().min(1, m['security.twoFactor.validation.codeRequired']()),
});

export type DisableTwoFactorInput = z.infer<typeof disableTwoFactorInputSchema>;
export type DisableTwoFactorField = keyof DisableTwoFactorInput;

/**
 * DELETE /me/two-factor/totp: 204 once off (the account's address is told); 422 with
 * errors.password (missing or wrong; the code is looked at only after a right password) or
 * errors.code (missing, wrong or already used); 429 with Retry-After after too many wrong ones.
 */
export async function disableTwoFactor(input: DisableTwoFactorInput): Promise<void> {
  const body: DisableBody = disableTwoFactorInputSchema.parse(input);
  await getCsrfCookie();
  await api.DELETE('/me/two-factor/totp', { body });
}

/** The mutation settles once /me has been read again, so the card says 'off' as the form closes. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }),
  });
}
