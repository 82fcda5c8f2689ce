import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';
import type { User } from '@/types/api-schema';

export const EMAIL_MAX_LENGTH = apiLimits.ChangeEmailBody.email.maxLength;
export const SECURITY_CODE_LENGTH = apiLimits.ChangeEmailBody.securityCode.maxLength;

/**
 * An address with a local part, an @ and a domain of two or more labels, any top-level domain
 * allowed, as the server's check (the same pattern as forgot-username's).
 */
const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/** The address the account has now: whether it is verified decides whether a code is asked. */
export type CurrentEmail = Pick<User, 'email' | 'verifiedAt'>;

/** Addresses are compared as the server does: trimmed, ignoring case. */
export const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The security-code step applies only while the current address is verified and the new value
 * differs from it (spec sections 4 and 6).
 */
export const needsSecurityCode = (current: CurrentEmail, email: string) =>
  !!current.verifiedAt && !sameEmail(email, current.email);

/**
 * While the current address is not verified no code can prove the player, so the password the
 * account has now is asked instead (a signed-in browser alone must not move the account).
 */
export const needsCurrentPassword = (current: CurrentEmail, email: string) =>
  !current.verifiedAt && !sameEmail(email, current.email);

const newEmailSchema = z
  .string()
  .trim()
  .min(1, m['security.email.validation.emailRequired']())
  .max(EMAIL_MAX_LENGTH, m['security.email.validation.emailInvalid']())
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: m['security.email.validation.emailInvalid']() }));

/**
 * The new address (spec section 5, "Email change") and, when the step applies, a code of exactly
 * six characters, or else the current password.
 */
export function changeEmailInputSchema(current: CurrentEmail) {
  return z
    .object({
      email: newEmailSchema,
      securityCode: z.string().trim(),
      currentPassword: z.string(),
    })
    .superRefine(({ email, securityCode, currentPassword }, context) => {
      if (needsCurrentPassword(current, email) && !currentPassword) {
        context.addIssue({
          code: 'custom',
          message: m['security.email.validation.currentPasswordRequired'](),
          path: ['currentPassword'],
        });
      }
      if (!needsSecurityCode(current, email)) return;
      if (!securityCode) {
        context.addIssue({
          code: 'custom',
          message: m['security.email.validation.securityCodeRequired'](),
          path: ['securityCode'],
        });
      } else if ([...securityCode].length !== SECURITY_CODE_LENGTH) {
        context.addIssue({
          code: 'custom',
          message: m['security.email.validation.securityCodeLength']({ limit: SECURITY_CODE_LENGTH }),
          path: ['securityCode'],
        });
      }
    });
}

export type ChangeEmailInput = z.infer<ReturnType<typeof changeEmailInputSchema>>;
export type ChangeEmailField = keyof ChangeEmailInput;
export type ChangeEmailRequest = {
  email: string;
  /** Empty when no code step applies. */
  securityCode: string;
  /** Empty unless the current address is unverified. */
  currentPassword: string;
  gReCaptchaToken: string;
};

/**
 * POST /me/change-email: answers the updated user, whose new address starts unverified; 422
 * with errors.email (invalid or unchanged), errors.securityCode (missing, wrong length, wrong or
 * expired), errors.currentPassword (missing or wrong) or errors.gReCaptchaToken. An address
 * another account holds is not refused: the server tells only that address's owner, by mail.
 */
export async function changeEmail(request: ChangeEmailRequest): Promise<User> {
  const body = { ...request, email: newEmailSchema.parse(request.email), securityCode: request.securityCode.trim() };
  await getCsrfCookie();
  return dataOf(await api.POST('/me/change-email', { body }));
}

/** The answer is the user as it now is; /me is asked again as well (spec section 7). */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeEmail,
    onSuccess: (user) => {
      queryClient.setQueryData<User | null>(USER_QUERY_KEY, user);
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
  });
}
