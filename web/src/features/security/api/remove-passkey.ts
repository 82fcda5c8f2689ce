import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';

import { PASSKEYS_QUERY_KEY } from './get-passkeys';

/**
 * DELETE /me/passkeys/{id}: the passkey no longer signs in (204; the account's address is
 * told); 404 when the player has no such passkey, e.g. it was removed elsewhere meanwhile.
 */
export async function removePasskey(id: string): Promise<void> {
  await getCsrfCookie();
  await api.DELETE('/me/passkeys/{id}', { params: { path: { id } } });
}

/** Either way the list is out of date afterwards: the passkey is gone. */
export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY }),
  });
}
