import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';

import { api } from '@/lib/api-client';
import { getCsrfCookie, userQueryOptions } from '@/lib/auth';
import { type CaptchaTokenSource, retryWithCaptchaWhenThrottled } from '@/lib/captcha-retry';

/**
 * Messages are locale keys; the form translates them. Written with zod/mini (the same checks
 * and messages as zod's chained API) because the sign-in page is the first one most visitors
 * load, and mini's functions leave out the parts of zod it does not use.
 */
export const loginInputSchema = z.object({
  username: z
    .string()
    .check(
      z.minLength(1, 'auth.login.validation.usernameRequired'),
      z.minLength(4, 'auth.login.validation.usernameMin'),
    ),
  password: z.string().check(z.minLength(1, 'auth.login.validation.passwordRequired')),
  remember: z.boolean(),
});

export type LoginInput = z.infer<typeof loginInputSchema>;

/** A captcha token goes along only once the gateway throttles the username or address. */
export type LoginRequest = LoginInput & { gReCaptchaToken?: string };

/** POST /auth/login; 422 with errors.username when the password is wrong, 429 when throttled. */
export async function login({ gReCaptchaToken, ...input }: LoginRequest): Promise<void> {
  const body = loginInputSchema.parse(input);
  await getCsrfCookie();
  // An undefined token is left out of the JSON.
  await api.post('/auth/login', { ...body, gReCaptchaToken });
}

type UseLoginOptions = {
  /** A loginFormSubmit captcha token. */
  getCaptchaToken: CaptchaTokenSource;
};

/**
 * Signs in, then reloads the current user; the sign-in route's guard then sends the user
 * back to where they were going. A throttled attempt (429) is sent once more with a captcha
 * token.
 */
export function useLogin({ getCaptchaToken }: UseLoginOptions) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) =>
      retryWithCaptchaWhenThrottled((gReCaptchaToken) => login({ ...input, gReCaptchaToken }), getCaptchaToken),
    onSuccess: () => queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }),
  });
}
