import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Product } from '@/types/api-schema';

export const PRODUCTS_QUERY_KEY = ['recharge', 'products'] as const;

/** GET /product: the games whose coin can be bought with KP. */
export async function getProducts(): Promise<Product[]> {
  const response = await api.get<Product[]>('/product');
  return response.data;
}

export const productsQueryOptions = () =>
  queryOptions({
    queryKey: PRODUCTS_QUERY_KEY,
    queryFn: getProducts,
  });

export const useProducts = () => useQuery(productsQueryOptions());
