import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { PASSWORD_MAX_LENGTH } from '@/components/ui/password-input';
import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, userQueryOptions } from '@/lib/auth';
import { isAtLeastYearsOld, isAtMostYearsOld, isIsoDate } from '@/lib/date';
import { meetsPasswordLevel, STRONGER_PASSWORD_MESSAGE } from '@/lib/password-strength';
import type { User } from '@/types/api-schema';

export const EMAIL_MAX_LENGTH = 128;
export const USERNAME_MIN_LENGTH = 4;
export const USERNAME_MAX_LENGTH = 32;
export const PASSWORD_MIN_LENGTH = 8;
/** Sign-up age bounds (the spec's unexplained constants 13 and 100). */
export const REGISTER_MIN_AGE = 13;
export const REGISTER_MAX_AGE = 100;

/** Values for the placeholders of the messages below. */
export const registerMessageParams = {
  minAge: REGISTER_MIN_AGE,
  limit: PASSWORD_MIN_LENGTH,
  max: PASSWORD_MAX_LENGTH,
} as const;

const v = 'auth.register.validation';

// Messages are locale keys; the form translates them with `registerMessageParams`.
const email = z
  .string()
  .min(1, `${v}.emailRequired`)
  .max(EMAIL_MAX_LENGTH, `${v}.emailInvalid`)
  .pipe(z.email(`${v}.emailInvalid`));

const dob = z
  .string()
  .refine(isIsoDate, `${v}.dobInvalid`)
  .refine((value) => !isIsoDate(value) || isAtLeastYearsOld(value, REGISTER_MIN_AGE), `${v}.dobMinAge`)
  .refine((value) => !isIsoDate(value) || isAtMostYearsOld(value, REGISTER_MAX_AGE), `${v}.dobInvalid`);

const username = z
  .string()
  .min(1, `${v}.usernameRequired`)
  .min(USERNAME_MIN_LENGTH, `${v}.usernameLength`)
  .max(USERNAME_MAX_LENGTH, `${v}.usernameLength`)
  .regex(/^[a-z0-9_]*$/, `${v}.usernameChars`);

const password = z
  .string()
  .min(1, `${v}.passwordRequired`)
  .min(PASSWORD_MIN_LENGTH, `${v}.passwordMin`)
  .max(PASSWORD_MAX_LENGTH, `${v}.passwordMax`)
  .refine((value) => meetsPasswordLevel(value, 'medium'), STRONGER_PASSWORD_MESSAGE.medium);

const passwordConfirm = z.string().min(1, `${v}.passwordConfirmRequired`);

function confirmationMatches<S extends z.ZodType<{ password: string; passwordConfirm: string }>>(schema: S): S {
  return schema.refine((values) => !values.passwordConfirm || values.password === values.passwordConfirm, {
    message: `${v}.passwordConfirmMismatch`,
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
