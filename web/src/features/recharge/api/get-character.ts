import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, ApiError, dataOf } from '@/lib/api-client';
import { MAX_RETRIES } from '@/lib/query-client';
import type { Character } from '@/types/api-schema';

export const characterQueryKey = (productCode: string, zoneId: number) =>
  ['recharge', 'character', productCode, zoneId] as const;

/**
 * GET /payment/coin-recharge/{productCode}/character?zoneId=: the player's character on that
 * server, as the game names it. 404 (with the game's `message`) when the player has none there,
 * 422 with errors.zoneId for a server the game does not have, 503 when the game did not answer
 * in time.
 */
export async function getCharacter(productCode: string, zoneId: number): Promise<Character> {
  const answer = await api.GET('/payment/coin-recharge/{product_code}/character', {
    params: { path: { product_code: productCode }, query: { zoneId: String(zoneId) } },
  });
  return dataOf(answer);
}

/**
 * Only a call that got no answer is asked again. Every answer is the game's (or the server's)
 * last word for now: a 404 or 422 will not change by asking, and a 503 already waited for the
 * game, so the player sees the warning at once instead of after the retries.
 */
const retryWithoutAnswer = (failureCount: number, error: unknown) =>
  failureCount < MAX_RETRIES && !(error instanceof ApiError && error.status !== undefined);

export const characterQueryOptions = (productCode: string, zoneId: number) =>
  queryOptions({
    queryKey: characterQueryKey(productCode, zoneId),
    queryFn: () => getCharacter(productCode, zoneId),
    enabled: zoneId > 0,
    retry: retryWithoutAnswer,
  });

/** The character on the chosen server; nothing is asked until a server is chosen. */
export const useCharacter = (productCode: string, zoneId: number) =>
  useQuery(characterQueryOptions(productCode, zoneId));
