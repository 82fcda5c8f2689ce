import { useMutation, useQueryClient } from '@tanstack/react-query';

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
  const response = await staffApi.post<AdjustmentAnswer>(`/staff/adjustments/${encodeURIComponent(id)}/${decision}`);
  return response.data;
}

export function useDecideAdjustment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideAdjustment,
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_ADJUSTMENTS_QUERY_KEY }),
  });
}
