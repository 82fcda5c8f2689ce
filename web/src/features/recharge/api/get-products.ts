import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import type { Product } from '@/types/api-schema';

export const PRODUCTS_QUERY_KEY = ['recharge', 'products'] as const;

/** GET /product: the games whose coin can be bought with KP. */
export async function getProducts(): Promise<Product[]> {
  return dataOf(await api.GET('/product'));
}

export const productsQueryOptions = () =>
  queryOptions({
    queryKey: PRODUCTS_QUERY_KEY,
    queryFn: getProducts,
  });

export const useProducts = () => useQuery(productsQueryOptions());
