import { queryOptions, useQuery } from '@tanstack/react-query';

import { dataOf, toApiError } from '@/lib/api-client';
import type { StaffEnrolmentBody, StaffEnrolmentTokenBody } from '@/types/api-schema';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { getStaffCsrfCookie, staffApi } from './staff-client';

/** What an enrolment link offers, or the server's word that it offers nothing. */
export type EnrolmentCheck = { valid: true; enrolment: StaffEnrolmentBody } | { valid: false; message: string };

export const enrolmentQueryKey = (token: string) => [...STAFF_QUERY_KEY, 'enrolment', token] as const;

/**
 * POST /staff/enrolment/check after GET /staff/auth/csrf-cookie, as the sign-in (no session is
 * needed): the member's username, the app secret offered (base32 and its otpauth:// URL) and
 * when the link stops working. A 404 (the link unknown, used or past its 24 hours) is an answer,
 * not a failure: it resolves to `{ valid: false }` with the server's message; only transport
 * errors and 5xx reject.
 */
export async function checkEnrolment(token: string): Promise<EnrolmentCheck> {
  const body: StaffEnrolmentTokenBody = { token };
  await getStaffCsrfCookie();
  try {
    const enrolment = dataOf(await staffApi.POST('/staff/enrolment/check', { body }));
    return { valid: true, enrolment };
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status === 404) return { valid: false, message: apiError.message };
    throw apiError;
  }
}

/**
 * Asked once per token and page: the answer changes only through this page (a link the
 * enrolment call finds used or expired, and the page then writes `{ valid: false }` itself) or
 * by expiring, which the enrolment call reports as well. The secret leaves memory with the page.
 */
export const enrolmentQueryOptions = (token: string) =>
  queryOptions({
    queryKey: enrolmentQueryKey(token),
    queryFn: () => checkEnrolment(token),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export const useEnrolmentCheck = (token: string) => useQuery(enrolmentQueryOptions(token));
