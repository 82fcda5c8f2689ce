import { queryOptions, useQuery } from '@tanstack/react-query';

import { dataOf, orOnStatus } from '@/lib/api-client';
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
  return orOnStatus(
    staffApi.GET('/staff/me').then((answer) => dataOf(answer)),
    401,
    null,
  );
}

export const staffMeQueryOptions = () =>
  queryOptions({
    queryKey: STAFF_ME_QUERY_KEY,
    queryFn: getStaffMe,
  });

export const useStaffMe = () => useQuery(staffMeQueryOptions());
