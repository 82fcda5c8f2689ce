import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { dataOf } from '@/lib/api-client';
import { m } from '@/paraglide/messages';
import type { CreatedStaffBody, NewStaffBody } from '@/types/api-schema';

import { STAFF_ROLES } from '../utils/roles';

import { STAFF_MEMBERS_QUERY_KEY } from './get-members';
import { staffApi } from './staff-client';

/** The longest address mail can carry (RFC 5321's path limit less its brackets). */
export const STAFF_EMAIL_MAX_LENGTH = 254;

/** As identity checks it: 3 to 32 lower-case letters, digits, '-' or '_'; the address once trimmed. */
export const createMemberSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, m['staff.members.create.validation.usernameRequired']())
    .regex(/^[a-z0-9_-]{3,32}$/, m['staff.members.create.validation.usernameInvalid']()),
  role: z.enum(STAFF_ROLES),
  email: z
    .string()
    .trim()
    .min(1, m['staff.members.create.validation.emailRequired']())
    .max(STAFF_EMAIL_MAX_LENGTH, m['staff.members.create.validation.emailInvalid']())
    .pipe(z.email(m['staff.members.create.validation.emailInvalid']())),
});

export type CreateMemberInput = z.infer<typeof createMemberSchema>;
export const CREATE_MEMBER_FIELDS = ['username', 'role', 'email'] as const;

/**
 * POST /staff/staff (admin only, re-authenticated): 201 with the new member, waiting for their
 * enrolment. The server mails them a single-use link (24 hours) to set their own password and
 * authenticator app: the admin never sees either. 422 with errors.username (taken, or not 3-32
 * of a-z 0-9 - _), errors.role or errors.email (not an address, or another member's).
 */
export async function createMember(input: CreateMemberInput): Promise<CreatedStaffBody> {
  const body: NewStaffBody = createMemberSchema.parse(input);
  return dataOf(await staffApi.POST('/staff/staff', { body }));
}

export function useCreateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STAFF_MEMBERS_QUERY_KEY }),
  });
}
