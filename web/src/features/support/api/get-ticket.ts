import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import type { TicketBody } from '@/types/api-schema';

import { SUPPORT_QUERY_KEY } from './get-tickets';

/**
 * GET /support/tickets/{id}: one of the player's tickets with its conversation, oldest message
 * first; 404 when it is none of theirs (or no ticket at all).
 */
export async function getTicket(id: string): Promise<TicketBody> {
  return dataOf(await api.GET('/support/tickets/{id}', { params: { path: { id } } }));
}

export const ticketQueryKey = (id: string) => [...SUPPORT_QUERY_KEY, 'ticket', id] as const;

export const ticketQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ticketQueryKey(id),
    queryFn: () => getTicket(id),
  });

export const useTicket = (id: string) => useQuery(ticketQueryOptions(id));
