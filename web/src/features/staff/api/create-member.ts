import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import type { CreatedStaffBody, NewStaffBody } from '@/types/api-schema';

import { STAFF_ROLES } from '../utils/roles';

import { STAFF_MEMBERS_QUERY_KEY } from './get-members';
import { staffApi } from './staff-client';

const v = 'staff.members.create.validation';

/** As identity checks it: 3 to 32 lower-case letters, digits, '-' or '_'. */
export const createMemberSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, `${v}.usernameRequired`)
    .regex(/^[a-z0-9_-]{3,32}$/, `${v}.usernameInvalid`),
  role: z.enum(STAFF_ROLES),
});

export type CreateMemberInput = z.infer<typeof createMemberSchema>;
export const CREATE_MEMBER_FIELDS = ['username', 'role'] as const;

/**
 * POST /staff/staff (admin only): 201 with the new member, their generated password, the
 * authenticator secret (base32) and its otpauth:// URL, which are shown this once and never
 * again. 422 with errors.username (taken, or not 3-32 of a-z 0-9 - _) or errors.role.
 */
export async function createMember(input: CreateMemberInput): Promise<CreatedStaffBody> {
  const body: NewStaffBody = createMemberSchema.parse(input);
  const response = await staffApi.post<CreatedStaffBody>('/staff/staff', body);
  return response.data;
}

export function useCreateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STAFF_MEMBERS_QUERY_KEY }),
  });
}
