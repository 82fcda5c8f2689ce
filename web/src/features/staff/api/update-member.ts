import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { StaffBody, StaffChangeBody } from '@/types/api-schema';

import { setMemberInList, STAFF_MEMBERS_QUERY_KEY } from './get-members';
import { staffApi } from './staff-client';

export type UpdateMemberInput = { id: string; role: string; disabled: boolean };

/**
 * PATCH /staff/staff/{id} (admin only, not one's own account): sets the role and whether the
 * member is disabled, both of them always (the server reads a missing one as '' or false). The
 * member as changed; 422 with errors.role; 404 when there is no such member.
 */
export async function updateMember({ id, role, disabled }: UpdateMemberInput): Promise<StaffBody> {
  const body: StaffChangeBody = { role, disabled };
  return dataOf(await staffApi.PATCH('/staff/staff/{id}', { params: { path: { id } }, body }));
}

export function useUpdateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMember,
    onSuccess: (member) => setMemberInList(queryClient, member),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_MEMBERS_QUERY_KEY }),
  });
}
