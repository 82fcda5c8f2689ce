import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api, toApiError } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';
import { meetsPasswordLevel, STRONGER_PASSWORD_MESSAGE } from '@/lib/password-strength';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';

import { resetTokenQueryKey, type ResetTokenCheck } from './check-reset-token';

export const PASSWORD_MIN_LENGTH = apiLimits.ResetBody.password.minLength;

/**
 * The new password must be strong (spec section 5, "Reset password").
 */
export const resetPasswordInputSchema = z
  .object({
    password: z
      .string()
      .min(1, m['recovery.resetPassword.validation.passwordRequired']())
      .min(PASSWORD_MIN_LENGTH, m['recovery.resetPassword.validation.passwordMin']({ limit: PASSWORD_MIN_LENGTH }))
      .refine((value) => meetsPasswordLevel(value, 'strong'), STRONGER_PASSWORD_MESSAGE.strong),
    passwordConfirm: z.string().min(1, m['recovery.resetPassword.validation.passwordConfirmRequired']()),
  })
  .refine((values) => !values.passwordConfirm || values.password === values.passwordConfirm, {
    message: m['recovery.resetPassword.validation.passwordConfirmMismatch'](),
    path: ['passwordConfirm'],
  });

export type ResetPasswordInput = z.infer<typeof resetPasswordInputSchema>;
export type ResetPasswordField = keyof ResetPasswordInput;
export type ResetPasswordRequest = ResetPasswordInput & { token: string };

/**
 * POST /auth/reset-password: 204 once the password is set (the server then ends every session
 * of the account); 422 with errors.password, errors.passwordConfirm, or errors.token when the
 * link was used or expired in the meantime.
 */
export async function resetPassword({ token, ...input }: ResetPasswordRequest): Promise<void> {
  const body = resetPasswordInputSchema.parse(input);
  await getCsrfCookie();
  await api.POST('/auth/reset-password', { body: { ...body, token } });
}

/**
 * Sets the new password. Either way the link is spent afterwards when the answer says so: on
 * success or on a token error the token's check reads invalid, without asking again. A player
 * signed in in this browser was signed out by the reset, so /me is out of date.
 */
export function useResetPassword() {
  const queryClient = useQueryClient();
  const spend = (token: string) =>
    queryClient.setQueryData<ResetTokenCheck>(resetTokenQueryKey(token), { valid: false });
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: (_data, { token }) => {
      spend(token);
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
    onError: (error, { token }) => {
      const apiError = toApiError(error);
      if (apiError.status === 422 && apiError.fieldError('token')) spend(token);
    },
  });
}
