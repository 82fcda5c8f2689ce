import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, userQueryOptions } from '@/lib/auth';
import type { SecondFactorBody, User } from '@/types/api-schema';

/**
 * The gateway's message (errors.code) when the sign-in waiting for its code has ended: more
 * than 5 minutes after the password, or none at all. Only the password step can start another.
 */
export const SIGN_IN_EXPIRED = 'Phiên đăng nhập đã hết hạn, hãy đăng nhập lại.';

/**
 * POST /auth/login/two-factor, the second step of a sign-in with two-factor on: six digits
 * from the authenticator app or an unused recovery code (the server ignores case, spaces and
 * dashes). Answers the user, now signed in; 422 with errors.code for a wrong or used code, or
 * SIGN_IN_EXPIRED; 429 with Retry-After after 5 wrong codes in 15 minutes (no captcha lifts it).
 */
export async function loginTwoFactor(code: string): Promise<User> {
  const body: SecondFactorBody = { code: code.trim() };
  await getCsrfCookie();
  return dataOf(await api.POST('/auth/login/two-factor', { body }));
}

/** As a sign-in without two-factor (useLogin): the current user is read again, and the guard leaves. */
export function useLoginTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginTwoFactor,
    onSuccess: () => queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }),
  });
}
