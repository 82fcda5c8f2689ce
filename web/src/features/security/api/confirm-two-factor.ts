import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import { m } from '@/paraglide/messages';
import type { ConfirmBody } from '@/types/api-schema';

/** An authenticator app's codes have six digits. */
export const TOTP_CODE_LENGTH = 6;

/** A code as typed, without the spaces (or dashes) an app or a paste may put in it. */
export const compactCode = (typed: string) => typed.replace(/[\s-]/g, '');

/**
 * The code that turns two-factor on: six digits from the app, spaces aside.
 */
export const confirmTwoFactorInputSchema = z.object({
  code: z.string().superRefine((typed, context) => {
    const code = compactCode(typed);
    if (!code) context.addIssue({ code: 'custom', message: m['security.twoFactor.validation.codeRequired']() });
    else if (!new RegExp(`^\\d{${TOTP_CODE_LENGTH}}$`).test(code)) {
      context.addIssue({
        code: 'custom',
        message: m['security.twoFactor.validation.codeDigits']({ length: TOTP_CODE_LENGTH }),
      });
    }
  }),
});

export type ConfirmTwoFactorInput = z.infer<typeof confirmTwoFactorInputSchema>;

/**
 * POST /me/two-factor/totp/confirm: turns two-factor on and answers the ten recovery codes,
 * which are shown only now; 422 with errors.code for a wrong or already used code, 409 when
 * no enrolment was started (or it was replaced), 429 with Retry-After after 5 wrong codes.
 */
export async function confirmTwoFactor({ code }: ConfirmTwoFactorInput): Promise<string[]> {
  const body: ConfirmBody = { code: compactCode(code) };
  await getCsrfCookie();
  return dataOf(await api.POST('/me/two-factor/totp/confirm', { body })).recoveryCodes;
}

/**
 * The user's mfaEnabled changes with it, but /me is read again only once the player has closed
 * the recovery codes (see TwoFactor), so the card behind them does not change meanwhile.
 */
export function useConfirmTwoFactor() {
  return useMutation({ mutationFn: confirmTwoFactor });
}
