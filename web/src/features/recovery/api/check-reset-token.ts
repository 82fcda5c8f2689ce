import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf, orOnStatus } from '@/lib/api-client';
import type { Validity } from '@/types/api-schema';

/** Whether the mailed reset link can still set a password. */
export type ResetTokenCheck = Validity;

export const resetTokenQueryKey = (token: string) => ['/auth/reset-password', token] as const;

/**
 * GET /auth/reset-password/{token}: 200 `{ valid: true }` while the mailed link can still set a
 * password, 404 once it is unknown, used or expired. The 404 is an answer, not a failure:
 * it resolves to `{ valid: false }`; only transport errors and 5xx reject.
 */
export async function checkResetToken(token: string): Promise<ResetTokenCheck> {
  const answer = api.GET('/auth/reset-password/{token}', { params: { path: { token } } });
  const check = await orOnStatus(
    answer.then((result) => dataOf(result)),
    404,
    null,
  );
  return { valid: check?.valid === true };
}

/**
 * Asked once per token and page: the answer changes only through this screen (a reset spends
 * the token, and the screen then writes `{ valid: false }` itself) or by expiring, which the
 * reset call reports as well.
 */
export const resetTokenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: resetTokenQueryKey(token),
    queryFn: () => checkResetToken(token),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export const useResetTokenCheck = (token: string) => useQuery(resetTokenQueryOptions(token));
