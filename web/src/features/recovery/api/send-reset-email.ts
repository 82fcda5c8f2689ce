import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';
import type { Neutral } from '@/types/api-schema';

export const USERNAME_MIN_LENGTH = apiLimits.SendResetBody.username.minLength;

export const forgotPasswordInputSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, m['recovery.forgotPassword.validation.usernameRequired']())
    .min(USERNAME_MIN_LENGTH, m['recovery.forgotPassword.validation.usernameMin']({ limit: USERNAME_MIN_LENGTH })),
});

export type ForgotPasswordInput = z.infer<typeof forgotPasswordInputSchema>;
export type SendResetEmailRequest = ForgotPasswordInput & { gReCaptchaToken: string };

/**
 * POST /auth/reset-password/send-email: mails a reset link to the account of the username. The
 * answer is the same neutral text whether or not the account exists; 422 for a name under 4
 * characters or a refused captcha.
 */
export async function sendResetEmail({ gReCaptchaToken, ...input }: SendResetEmailRequest): Promise<Neutral> {
  const body = forgotPasswordInputSchema.parse(input);
  await getCsrfCookie();
  return dataOf(await api.POST('/auth/reset-password/send-email', { body: { ...body, gReCaptchaToken } }));
}

/** Nothing the app holds changes, so nothing is refreshed. */
export function useSendResetEmail() {
  return useMutation({ mutationFn: sendResetEmail });
}
