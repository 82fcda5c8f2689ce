import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { PASSWORD_MAX_LENGTH } from '@/components/ui/password-input';
import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, userQueryOptions } from '@/lib/auth';
import { isAtLeastYearsOld, isAtMostYearsOld, isIsoDate } from '@/lib/date';
import { meetsPasswordLevel, STRONGER_PASSWORD_MESSAGE } from '@/lib/password-strength';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';
import type { User } from '@/types/api-schema';

export const EMAIL_MAX_LENGTH = apiLimits.RegisterBody.email.maxLength;
export const USERNAME_MIN_LENGTH = apiLimits.RegisterBody.username.minLength;
export const USERNAME_MAX_LENGTH = apiLimits.RegisterBody.username.maxLength;
export const PASSWORD_MIN_LENGTH = apiLimits.RegisterBody.password.minLength;
/** Sign-up age bounds (the spec's unexplained constants 13 and 100). */
export const REGISTER_MIN_AGE = 13;
export const REGISTER_MAX_AGE = 100;

const email = z
  .string()
  .min(1, m['auth.register.validation.emailRequired']())
  .max(EMAIL_MAX_LENGTH, m['auth.register.validation.emailInvalid']())
  .pipe(z.email(m['auth.register.validation.emailInvalid']()));

const dob = z
  .string()
  .refine(isIsoDate, m['auth.register.validation.dobInvalid']())
  .refine(
    (value) => !isIsoDate(value) || isAtLeastYearsOld(value, REGISTER_MIN_AGE),
    m['auth.register.validation.dobMinAge']({ minAge: REGISTER_MIN_AGE }),
  )
  .refine(
    (value) => !isIsoDate(value) || isAtMostYearsOld(value, REGISTER_MAX_AGE),
    m['auth.register.validation.dobInvalid'](),
  );

const username = z
  .string()
  .min(1, m['auth.register.validation.usernameRequired']())
  .min(USERNAME_MIN_LENGTH, m['auth.register.validation.usernameLength']())
  .max(USERNAME_MAX_LENGTH, m['auth.register.validation.usernameLength']())
  .regex(/^[a-z0-9_]*$/, m['auth.register.validation.usernameChars']());

const password = z
  .string()
  .min(1, m['auth.register.validation.passwordRequired']())
  .min(PASSWORD_MIN_LENGTH, m['auth.register.validation.passwordMin']({ limit: PASSWORD_MIN_LENGTH }))
  .max(PASSWORD_MAX_LENGTH, m['auth.register.validation.passwordMax']({ max: PASSWORD_MAX_LENGTH }))
  .refine((value) => meetsPasswordLevel(value, 'medium'), STRONGER_PASSWORD_MESSAGE.medium);

const passwordConfirm = z.string().min(1, m['auth.register.validation.passwordConfirmRequired']());

function confirmationMatches<S extends z.ZodType<{ password: string; passwordConfirm: string }>>(schema: S): S {
  return schema.refine((values) => !values.passwordConfirm || values.password === values.passwordConfirm, {
    message: m['auth.register.validation.passwordConfirmMismatch'](),
    path: ['passwordConfirm'],
  });
}

/** The four steps in order, each with its fields and the schema that lets it move on. */
export const registerSteps = [
  {
    id: 'email',
    fields: ['email', 'receiveNewsletter'],
    schema: z.object({ email, receiveNewsletter: z.boolean() }),
  },
  { id: 'dob', fields: ['dob'], schema: z.object({ dob }) },
  { id: 'username', fields: ['username'], schema: z.object({ username }) },
  {
    id: 'password',
    fields: ['password', 'passwordConfirm'],
    schema: confirmationMatches(z.object({ password, passwordConfirm })),
  },
] as const;

export type RegisterStepId = (typeof registerSteps)[number]['id'];

export const registerInputSchema = confirmationMatches(
  z.object({
    email,
    receiveNewsletter: z.boolean(),
    dob,
    username,
    password,
    passwordConfirm,
  }),
);

export type RegisterInput = z.infer<typeof registerInputSchema>;
export type RegisterField = keyof RegisterInput;
export const REGISTER_FIELDS = registerSteps.flatMap<RegisterField>((step) => step.fields);

export type RegisterRequest = RegisterInput & { gReCaptchaToken: string };

/** POST /auth/register; on 201 the new user is signed in and the body is that user. */
export async function register({ gReCaptchaToken, ...input }: RegisterRequest): Promise<User> {
  const body = registerInputSchema.parse(input);
  await getCsrfCookie();
  return dataOf(await api.POST('/auth/register', { body: { ...body, gReCaptchaToken } }));
}

/** Signs up, then reloads the current user; the sign-up route's guard then sends the user on. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: () => queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }),
  });
}
