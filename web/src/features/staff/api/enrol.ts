import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { toApiError } from '@/lib/api-client';
import { meetsPasswordLevel, STRONGER_PASSWORD_MESSAGE } from '@/lib/password-strength';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';
import type { StaffEnrolBody } from '@/types/api-schema';

import { enrolmentQueryKey, type EnrolmentCheck } from './check-enrolment';
import { appCodeSchema, compactCode } from './sign-in';
import { getStaffCsrfCookie, staffApi } from './staff-client';

/** A member's own password: at least this long, with every kind of character. */
export const STAFF_PASSWORD_MIN_LENGTH = apiLimits.StaffEnrolBody.password.minLength;

/**
 * The enrolment form: the member's own password, very strong (lower- and upper-case letters,
 * digits and symbols), typed twice, and a current code of the app they just added the secret to.
 * Messages are the texts the form shows. The server is the authority: its refusals go beside
 * the fields.
 */
export const enrolSchema = z
  .object({
    password: z
      .string()
      .min(1, m['staff.enrol.validation.passwordRequired']())
      .min(STAFF_PASSWORD_MIN_LENGTH, m['staff.enrol.validation.passwordMin']({ limit: STAFF_PASSWORD_MIN_LENGTH }))
      .refine((value) => meetsPasswordLevel(value, 'veryStrong'), STRONGER_PASSWORD_MESSAGE.veryStrong),
    passwordConfirm: z.string().min(1, m['staff.enrol.validation.passwordConfirmRequired']()),
    code: appCodeSchema({
      required: m['staff.enrol.validation.codeRequired'](),
      digits: m['staff.enrol.validation.codeDigits'](),
    }),
  })
  .refine((values) => !values.passwordConfirm || values.password === values.passwordConfirm, {
    message: m['staff.enrol.validation.passwordConfirmMismatch'](),
    path: ['passwordConfirm'],
  });

export type EnrolInput = z.infer<typeof enrolSchema>;
export type EnrolRequest = EnrolInput & { token: string };
export const ENROL_FIELDS = ['password', 'passwordConfirm', 'code'] as const;

/**
 * POST /staff/enrolment after GET /staff/auth/csrf-cookie: 204 once the member's password and
 * app are theirs (the link is then used up). 422 with errors.password, errors.passwordConfirm or
 * errors.code; 404 when the link was used or expired in the meantime; 429 when throttled.
 */
export async function enrol({ token, ...input }: EnrolRequest): Promise<void> {
  const parsed = enrolSchema.parse(input);
  const body: StaffEnrolBody = { ...parsed, code: compactCode(parsed.code), token };
  await getStaffCsrfCookie();
  await staffApi.POST('/staff/enrolment', { body });
}

/** Enrols; a link the server no longer knows (404) turns the page into its invalid-link view. */
export function useEnrol() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enrol,
    onError: (error, { token }) => {
      const apiError = toApiError(error);
      if (apiError.status !== 404) return;
      const spent: EnrolmentCheck = { valid: false, message: apiError.message };
      queryClient.setQueryData(enrolmentQueryKey(token), spent);
    },
  });
}

/** The router state with which a finished enrolment leads to the sign-in page, which then says so. */
export const ENROLLED_STATE = { enrolled: true } as const;

export const isEnrolledState = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && Reflect.get(state, 'enrolled') === true;
