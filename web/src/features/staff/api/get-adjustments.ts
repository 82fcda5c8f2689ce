import { queryOptions, useQuery } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { components } from '@/types/openapi.gen';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { staffApi } from './staff-client';

export type Adjustment = components['schemas']['AdjustmentBody'];
export type Adjustments = components['schemas']['AdjustmentsBody'];

export const ADJUSTMENT_STATUSES = ['pending', 'applied', 'rejected'] as const;
export type AdjustmentStatus = (typeof ADJUSTMENT_STATUSES)[number];

export const isAdjustmentStatus = (value: string): value is AdjustmentStatus =>
  (ADJUSTMENT_STATUSES as readonly string[]).includes(value);

export const STAFF_ADJUSTMENTS_QUERY_KEY = [...STAFF_QUERY_KEY, 'adjustments'] as const;

/**
 * GET /staff/adjustments (every role): the newest 100 adjustments, of one status or all, and
 * the KP above which one waits for a second finance member.
 */
export async function getAdjustments(status: AdjustmentStatus | null): Promise<Adjustments> {
  return dataOf(await staffApi.GET('/staff/adjustments', { params: { query: status ? { status } : {} } }));
}

export const adjustmentsQueryOptions = (status: AdjustmentStatus | null) =>
  queryOptions({
    queryKey: [...STAFF_ADJUSTMENTS_QUERY_KEY, status ?? 'all'] as const,
    queryFn: () => getAdjustments(status),
  });

export const useAdjustments = (status: AdjustmentStatus | null) => useQuery(adjustmentsQueryOptions(status));
