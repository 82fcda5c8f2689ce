import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import type { Neutral } from '@/types/api-schema';

export const USERNAME_MIN_LENGTH = 4;

const v = 'recovery.forgotPassword.validation';

/** Messages are locale keys; the form translates them with `{ limit: USERNAME_MIN_LENGTH }`. */
export const forgotPasswordInputSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, `${v}.usernameRequired`)
    .min(USERNAME_MIN_LENGTH, `${v}.usernameMin`),
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
