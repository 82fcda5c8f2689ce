import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { env } from '@/config/env';
import { dataOf } from '@/lib/api-client';
import type { StaffActionBody } from '@/types/api-schema';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { staffApi } from './staff-client';

/** Rows per page of the log (the server takes 1 to 200). */
export const AUDIT_PAGE_SIZE = 50;

/**
 * One row of the log. `before` and `after` are the state the action changed, as JSON objects;
 * the server sends null for an action that changed none (a sign-in, say), which the document
 * does not say yet.
 */
export type StaffAction = Omit<StaffActionBody, 'before' | 'after'> & {
  before: StaffActionBody['before'] | null;
  after: StaffActionBody['after'] | null;
};

/** Where a page starts: after the last row of the page before (its time and id). */
type AuditPosition = { before: string; beforeId: string };

type AuditPageRequest = {
  subject: string;
  /** The last row of the page before; null for the first page. */
  after: AuditPosition | null;
  limit?: number;
};

const auditParams = (subject: string): Record<string, string> => (subject ? { subject } : {});

/** GET /staff/audit: a page of the log, newest first (every role may read it). */
export async function getAuditPage({ subject, after, limit = AUDIT_PAGE_SIZE }: AuditPageRequest): Promise<StaffAction[]> {
  const answer = await staffApi.GET('/staff/audit', {
    params: { query: { limit, ...(after ?? {}), ...auditParams(subject) } },
  });
  return dataOf(answer);
}

export const auditLogQueryOptions = (subject: string) =>
  infiniteQueryOptions({
    queryKey: [...STAFF_QUERY_KEY, 'audit', subject] as const,
    queryFn: ({ pageParam }) => getAuditPage({ subject, after: pageParam }),
    initialPageParam: null as AuditPosition | null,
    // A full page may have more after it: the next starts after its last row, by time and then
    // id, so that the actions one transaction recorded at one instant are none of them skipped.
    getNextPageParam: (page): AuditPosition | null => {
      const last = page.at(-1);
      return page.length < AUDIT_PAGE_SIZE || !last?.occurredAt ? null : { before: last.occurredAt, beforeId: last.id };
    },
  });

export const useAuditLog = (subject: string) => useInfiniteQuery(auditLogQueryOptions(subject));

/**
 * GET /staff/audit.csv with the same subject (the newest 5,000 rows): a plain link that the
 * browser downloads itself, with the console's session cookie.
 */
export function auditCsvUrl(subject: string): string {
  const search = new URLSearchParams(auditParams(subject)).toString();
  return `${env.API_URL}/staff/audit.csv${search ? `?${search}` : ''}`;
}
