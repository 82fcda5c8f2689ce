import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';
import { type CaptchaTokenSource, retryWithCaptchaWhenThrottled } from '@/lib/captcha-retry';
import { meetsPasswordLevel, STRONGER_PASSWORD_MESSAGE } from '@/lib/password-strength';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';

import { SESSIONS_QUERY_KEY } from './get-sessions';

export const PASSWORD_MIN_LENGTH = apiLimits.ChangePasswordBody.password.minLength;

/**
 * The current password, and a new one of medium strength with its confirmation (spec section 5,
 * "Change password").
 */
export const changePasswordInputSchema = z
  .object({
    currentPassword: z.string().min(1, m['security.password.validation.currentPasswordRequired']()),
    password: z
      .string()
      .min(1, m['security.password.validation.passwordRequired']())
      .min(PASSWORD_MIN_LENGTH, m['security.password.validation.passwordMin']({ limit: PASSWORD_MIN_LENGTH }))
      .refine((value) => meetsPasswordLevel(value, 'medium'), STRONGER_PASSWORD_MESSAGE.medium),
    passwordConfirm: z.string().min(1, m['security.password.validation.passwordConfirmRequired']()),
  })
  .refine((values) => !values.passwordConfirm || values.password === values.passwordConfirm, {
    message: m['security.password.validation.passwordConfirmMismatch'](),
    path: ['passwordConfirm'],
  });

export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;
export type ChangePasswordField = keyof ChangePasswordInput;

/** A captcha token goes along only once the gateway throttles the attempts. */
export type ChangePasswordRequest = ChangePasswordInput & { gReCaptchaToken?: string };

/**
 * POST /me/change-password: 204 once changed, and every other session of the player is signed
 * out; 422 with errors.currentPassword (missing or wrong), errors.password or
 * errors.passwordConfirm; 429 when throttled.
 */
export async function changePassword({ gReCaptchaToken, ...input }: ChangePasswordRequest): Promise<void> {
  const body = changePasswordInputSchema.parse(input);
  await getCsrfCookie();
  // An undefined token is left out of the JSON.
  await api.POST('/me/change-password', { body: { ...body, gReCaptchaToken } });
}

type UseChangePasswordOptions = {
  /** A changePasswordFormSubmit captcha token. */
  getCaptchaToken: CaptchaTokenSource;
};

/**
 * The user's passwordChangedAt and the list of sessions change with the password. The mutation
 * settles only once /me has been read again (spec section 4: the user data is refreshed, then
 * success is set), so the success text never shows beside the old data. A throttled attempt
 * (429) is sent once more with a captcha token.
 */
export function useChangePassword({ getCaptchaToken }: UseChangePasswordOptions) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      retryWithCaptchaWhenThrottled(
        (gReCaptchaToken) => changePassword({ ...input, gReCaptchaToken }),
        getCaptchaToken,
      ),
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
  });
}
