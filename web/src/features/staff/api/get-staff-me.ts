import { queryOptions, useQuery } from '@tanstack/react-query';

import type { StaffMeBody } from '@/types/api-schema';

import { staffApi } from './staff-client';

/** Every console query's key starts with this, apart from the player's. */
export const STAFF_QUERY_KEY = ['staff'] as const;
export const STAFF_ME_QUERY_KEY = [...STAFF_QUERY_KEY, 'me'] as const;

/**
 * GET /staff/me: the signed-in staff member, or null without a console session (none at all, a
 * player's, 15 minutes unused, or the member disabled: 401).
 */
export async function getStaffMe(): Promise<StaffMeBody | null> {
  const response = await staffApi.get<StaffMeBody>('/staff/me', {
    validateStatus: (status) => (status >= 200 && status < 300) || status === 401,
  });
  return response.status === 401 ? null : response.data;
}

export const staffMeQueryOptions = () =>
  queryOptions({
    queryKey: STAFF_ME_QUERY_KEY,
    queryFn: getStaffMe,
  });

export const useStaffMe = () => useQuery(staffMeQueryOptions());
