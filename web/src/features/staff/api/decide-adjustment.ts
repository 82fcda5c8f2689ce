import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';

import type { AdjustmentAnswer } from './ask-adjustment';
import { STAFF_ADJUSTMENTS_QUERY_KEY } from './get-adjustments';
import { staffApi } from './staff-client';

export type AdjustmentDecision = 'approve' | 'reject';
export type DecideAdjustmentInput = { id: string; decision: AdjustmentDecision };

/**
 * POST /staff/adjustments/{id}/approve (another finance member than its asker,
 * re-authenticated: it moves the KP) or …/reject (finance; nothing moves). The adjustment as it
 * now stands; 403 for one's own; 409 once decided.
 */
export async function decideAdjustment({ id, decision }: DecideAdjustmentInput): Promise<AdjustmentAnswer> {
  const options = { params: { path: { id } } };
  const answer =
    decision === 'approve'
      ? await staffApi.POST('/staff/adjustments/{id}/approve', options)
      : await staffApi.POST('/staff/adjustments/{id}/reject', options);
  return dataOf(answer);
}

export function useDecideAdjustment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideAdjustment,
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_ADJUSTMENTS_QUERY_KEY }),
  });
}
