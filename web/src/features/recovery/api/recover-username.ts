import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';
import type { Neutral } from '@/types/api-schema';

export const EMAIL_MAX_LENGTH = apiLimits.RecoverUsernameBody.email.maxLength;

/**
 * An address with a local part, an @ and a domain of two or more labels. Unlike zod's default
 * pattern the last label (the top-level domain) is not restricted (spec section 5): digits,
 * hyphens and IDN forms such as `xn--p1ai` pass.
 */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

export const forgotUsernameInputSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, m['recovery.forgotUsername.validation.emailRequired']())
    .max(EMAIL_MAX_LENGTH, m['recovery.forgotUsername.validation.emailInvalid']())
    .pipe(z.email({ pattern: EMAIL_PATTERN, error: m['recovery.forgotUsername.validation.emailInvalid']() })),
});

export type ForgotUsernameInput = z.infer<typeof forgotUsernameInputSchema>;
export type RecoverUsernameRequest = ForgotUsernameInput & { gReCaptchaToken: string };

/**
 * POST /auth/recover-username: mails the usernames of the address's account. The answer is the
 * same neutral text whether or not an account has the address; 422 for an empty or invalid
 * address or a refused captcha.
 */
export async function recoverUsername({ gReCaptchaToken, ...input }: RecoverUsernameRequest): Promise<Neutral> {
  const body = forgotUsernameInputSchema.parse(input);
  await getCsrfCookie();
  return dataOf(await api.POST('/auth/recover-username', { body: { ...body, gReCaptchaToken } }));
}

/** Nothing the app holds changes, so nothing is refreshed. */
export function useRecoverUsername() {
  return useMutation({ mutationFn: recoverUsername });
}
