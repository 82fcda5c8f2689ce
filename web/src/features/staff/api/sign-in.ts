import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { dataOf } from '@/lib/api-client';
import { m } from '@/paraglide/messages';
import type { StaffMeBody, StaffSignInBody } from '@/types/api-schema';

import { STAFF_ME_QUERY_KEY } from './get-staff-me';
import { getStaffCsrfCookie, staffApi } from './staff-client';

/** An authenticator app's codes have six digits. */
export const STAFF_CODE_LENGTH = 6;

/** A code as typed, without the spaces an app or a paste may put in it. */
export const compactCode = (typed: string) => typed.replace(/\s/g, '');

/** An app code as typed: `required` when there is none, `digits` unless six digits (spaces aside). */
export const appCodeSchema = ({ required, digits }: { required: string; digits: string }) =>
  z.string().superRefine((typed, context) => {
    const code = compactCode(typed);
    if (!code) context.addIssue({ code: 'custom', message: required });
    else if (!new RegExp(`^\\d{${STAFF_CODE_LENGTH}}$`).test(code)) {
      context.addIssue({ code: 'custom', message: digits });
    }
  });

/** The sign-in form, with the texts its fields show. */
export const staffSignInSchema = z.object({
  username: z.string().trim().min(1, m['staff.signIn.validation.usernameRequired']()),
  password: z.string().min(1, m['staff.signIn.validation.passwordRequired']()),
  code: appCodeSchema({
    required: m['staff.signIn.validation.codeRequired'](),
    digits: m['staff.signIn.validation.codeDigits'](),
  }),
});

export type StaffSignInInput = z.infer<typeof staffSignInSchema>;

/**
 * POST /staff/auth/sign-in after GET /staff/auth/csrf-cookie: the member, now signed in to the
 * console. 422 with errors.username (a wrong username, password or code is one message there),
 * errors.password or errors.code; 429 with Retry-After after 5 wrong attempts in 15 minutes.
 */
export async function staffSignIn(input: StaffSignInInput): Promise<StaffMeBody> {
  const parsed = staffSignInSchema.parse(input);
  const body: StaffSignInBody = { ...parsed, code: compactCode(parsed.code) };
  await getStaffCsrfCookie();
  return dataOf(await staffApi.POST('/staff/auth/sign-in', { body }));
}

/** Signs in and keeps the answer as the current member, so the console opens without asking again. */
export function useStaffSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: staffSignIn,
    onSuccess: (me) => queryClient.setQueryData(STAFF_ME_QUERY_KEY, me),
  });
}
