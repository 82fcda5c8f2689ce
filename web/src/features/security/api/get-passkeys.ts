import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import type { Passkey } from '@/types/api-schema';

/** Not under /me's key, so refreshing the user does not ask for the passkeys again. */
export const PASSKEYS_QUERY_KEY = ['passkeys'] as const;

/** GET /me/passkeys: the player's passkeys, oldest first. */
export async function getPasskeys(): Promise<Passkey[]> {
  return dataOf(await api.GET('/me/passkeys'));
}

export const passkeysQueryOptions = () =>
  queryOptions({
    queryKey: PASSKEYS_QUERY_KEY,
    queryFn: getPasskeys,
  });

export const usePasskeys = () => useQuery(passkeysQueryOptions());
