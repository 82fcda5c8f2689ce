import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { StaffBody } from '@/types/api-schema';

import { setMemberInList, STAFF_MEMBERS_QUERY_KEY } from './get-members';
import { staffApi } from './staff-client';

/**
 * POST /staff/staff/{id}/reset-credentials (admin only, re-authenticated, not one's own): the
 * member's password and authenticator app stop working, their sessions end, and a new enrolment
 * link goes to their email. The member, waiting for that enrolment; 422 with a message when they
 * have no email on record or are the admin themselves; 404 when there is no such member.
 */
export async function resetCredentials(id: string): Promise<StaffBody> {
  return dataOf(await staffApi.POST('/staff/staff/{id}/reset-credentials', { params: { path: { id } } }));
}

export function useResetCredentials() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetCredentials,
    onSuccess: (member) => setMemberInList(queryClient, member),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_MEMBERS_QUERY_KEY }),
  });
}
