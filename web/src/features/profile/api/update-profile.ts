import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, USER_QUERY_KEY } from '@/lib/auth';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';
import type { User } from '@/types/api-schema';

/** The locales the portal offers (spec section 5, "Language and phone"). */
export const LANGUAGES = ['vi-VN'] as const;
/** Each language's name, in the language the page is in. */
export const LANGUAGE_NAMES = { 'vi-VN': m['profile.languages.vi-VN'] } satisfies Record<
  (typeof LANGUAGES)[number],
  () => string
>;

export const NAME_MAX_LENGTH = apiLimits.ProfileBody.firstName.maxLength;
/** The name inputs themselves take at most this many characters (spec section 5, "Name"). */
export const NAME_INPUT_MAX_LENGTH = 32;
export const PHONE_MAX_LENGTH = 15;
const PHONE_MIN_DIGITS = 8;

const nameTooLong = m['profile.validation.nameTooLong']({ limit: NAME_MAX_LENGTH });

export const nameInputSchema = z.object({
  lastName: z.string().trim().min(1, m['profile.validation.lastNameRequired']()).max(NAME_MAX_LENGTH, nameTooLong),
  middleName: z.string().trim().max(NAME_MAX_LENGTH, nameTooLong),
  firstName: z.string().trim().min(1, m['profile.validation.firstNameRequired']()).max(NAME_MAX_LENGTH, nameTooLong),
});

export const languageInputSchema = z.object({
  language: z.enum(LANGUAGES, { error: m['profile.validation.languageUnsupported']() }),
});

/**
 * A phone number as the server keeps it: spaces dropped, an optional leading '+', then digits;
 * at most 15 characters in all and at least 8 digits.
 */
export const phoneInputSchema = z.object({
  phoneNumber: z
    .string()
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .min(1, m['profile.validation.phoneRequired']())
        .max(PHONE_MAX_LENGTH, m['profile.validation.phoneInvalid']())
        .regex(new RegExp(`^\\+?\\d{${PHONE_MIN_DIGITS},}$`), m['profile.validation.phoneInvalid']()),
    ),
});

export type NameInput = z.input<typeof nameInputSchema>;
export type LanguageInput = z.input<typeof languageInputSchema>;
export type PhoneInput = z.input<typeof phoneInputSchema>;

/** What PATCH /me/update-profile takes: only the fields sent change. */
export type ProfileChange = Partial<
  z.output<typeof nameInputSchema> & z.output<typeof languageInputSchema> & z.output<typeof phoneInputSchema>
>;

/**
 * PATCH /me/update-profile: 200 with the updated user; 422 with the spec's messages under
 * errors.firstName, errors.lastName, errors.middleName, errors.language or errors.phoneNumber.
 */
export async function updateProfile(change: ProfileChange): Promise<User> {
  await getCsrfCookie();
  return dataOf(await api.PATCH('/me/update-profile', { body: change }));
}

/**
 * Saves part of the profile, then refreshes the user (spec section 4: the user data is
 * refreshed, then success is set): the mutation settles only once /me has been read again.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async (user) => {
      queryClient.setQueryData(USER_QUERY_KEY, user);
      await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
  });
}
