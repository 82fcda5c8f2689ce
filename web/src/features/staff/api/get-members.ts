import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { StaffBody } from '@/types/api-schema';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { staffApi } from './staff-client';

export const STAFF_MEMBERS_QUERY_KEY = [...STAFF_QUERY_KEY, 'members'] as const;

/** GET /staff/staff: every staff member (admin only: 403 with the server's message otherwise). */
export async function getMembers(): Promise<StaffBody[]> {
  return dataOf(await staffApi.GET('/staff/staff'));
}

export const membersQueryOptions = () =>
  queryOptions({
    queryKey: STAFF_MEMBERS_QUERY_KEY,
    queryFn: getMembers,
  });

export const useMembers = () => useQuery(membersQueryOptions());

/** A member as an action left them, in the list at once (it is read again after the action). */
export function setMemberInList(queryClient: QueryClient, member: StaffBody) {
  queryClient.setQueryData<StaffBody[]>(STAFF_MEMBERS_QUERY_KEY, (members) =>
    members?.map((each) => (each.id === member.id ? member : each)),
  );
}
