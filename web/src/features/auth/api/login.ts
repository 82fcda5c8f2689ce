import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Resolver } from 'react-hook-form';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, userQueryOptions } from '@/lib/auth';
import { type CaptchaTokenSource, retryWithCaptchaWhenThrottled } from '@/lib/captcha-retry';
import type { LoginAnswer, TwoFactorRequired } from '@/types/api-schema';

import type { LoginInput } from './login-schema';

/** The sign-in form's fields; ./login-schema.ts holds their checks. */
export type { LoginInput };

/**
 * The schema module with zod in it: it starts loading with this module, beside the page, and
 * is asked for again if that load failed (e.g. offline for a moment).
 */
let schemaModule = import('./login-schema');
schemaModule.catch(() => undefined);
const loadSchema = () => schemaModule.catch(() => (schemaModule = import('./login-schema')));

/**
 * The form's resolver: the zod schema of ./login-schema.ts, whose module (zod and the resolver
 * with it) loads the first time the form validates, right after it has rendered, instead of
 * before the sign-in page can render.
 */
export const loginResolver: Resolver<LoginInput> = async (values, context, options) =>
  (await loadSchema()).loginSchemaResolver(values, context, options);

/** A captcha token goes along only once the gateway throttles the username or address. */
export type LoginRequest = LoginInput & { gReCaptchaToken?: string };

/** The password was right, but the account has two-factor on: a code is asked next. */
export const isTwoFactorRequired = (answer: LoginAnswer | undefined): answer is TwoFactorRequired =>
  typeof answer === 'object' && answer !== null && 'twoFactorRequired' in answer && answer.twoFactorRequired === true;

/**
 * POST /auth/login; 422 with errors.username when the password is wrong, 429 when throttled.
 * Answers the user, or `{ twoFactorRequired: true }` when the account has two-factor on: then
 * the session is not signed in until POST /auth/login/two-factor accepts a code.
 */
export async function login({ gReCaptchaToken, ...input }: LoginRequest): Promise<LoginAnswer> {
  const body = (await loadSchema()).loginInputSchema.parse(input);
  await getCsrfCookie();
  // An undefined token is left out of the JSON.
  return dataOf(await api.POST('/auth/login', { body: { ...body, gReCaptchaToken } }));
}

type UseLoginOptions = {
  /** A loginFormSubmit captcha token. */
  getCaptchaToken: CaptchaTokenSource;
};

/**
 * Signs in, then reloads the current user; the sign-in route's guard then sends the user
 * back to where they were going. A throttled attempt (429) is sent once more with a captcha
 * token. When a code is asked next (two-factor) nobody is signed in yet: nothing is reloaded.
 */
export function useLogin({ getCaptchaToken }: UseLoginOptions) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) =>
      retryWithCaptchaWhenThrottled((gReCaptchaToken) => login({ ...input, gReCaptchaToken }), getCaptchaToken),
    onSuccess: async (answer) => {
      if (!isTwoFactorRequired(answer)) await queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 });
    },
  });
}
