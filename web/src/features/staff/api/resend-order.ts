import { useMutation, useQueryClient } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { components } from '@/types/openapi.gen';

import { playerQueryKey } from './get-player';
import { staffApi } from './staff-client';

type Resent = components['schemas']['ResentBody'];

/**
 * POST /staff/orders/{id}/resend (support): sends an order awaiting delivery to its game again,
 * under the same message id, so the game delivers it once whichever copy it reads.
 */
export async function resendOrder(orderId: string): Promise<Resent> {
  return dataOf(await staffApi.POST('/staff/orders/{id}/resend', { params: { path: { id: orderId } } }));
}

/** The player's page is read again after it, whatever the answer. */
export function useResendOrder(playerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendOrder,
    onSettled: () => queryClient.invalidateQueries({ queryKey: playerQueryKey(playerId) }),
  });
}
