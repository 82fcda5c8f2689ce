import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import type { RechargeInfo } from '@/types/api-schema';

export const coinRechargeInfoQueryKey = (productCode: string) => ['recharge', 'info', productCode] as const;

/**
 * GET /payment/coin-recharge/{productCode}: the game's coin name, servers, amount tiles and the
 * events active now; 404 for a game the portal does not sell. Shared: the coin top-up page shows
 * all of it, the giftcode page the servers a code of in-game items can go to.
 */
export async function getCoinRechargeInfo(productCode: string): Promise<RechargeInfo> {
  const answer = await api.GET('/payment/coin-recharge/{product_code}', {
    params: { path: { product_code: productCode } },
  });
  return dataOf(answer);
}

export const coinRechargeInfoQueryOptions = (productCode: string) =>
  queryOptions({
    queryKey: coinRechargeInfoQueryKey(productCode),
    queryFn: () => getCoinRechargeInfo(productCode),
  });

export const useCoinRechargeInfo = (productCode: string) => useQuery(coinRechargeInfoQueryOptions(productCode));
