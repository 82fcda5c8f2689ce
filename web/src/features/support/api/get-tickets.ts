import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import type { TicketSummaryBody } from '@/types/api-schema';

/** The key of everything the support centre reads: the list, and each ticket under it. */
export const SUPPORT_QUERY_KEY = ['support', 'tickets'] as const;

/** The list's key: a new ticket or an answer changes what it shows. */
export const TICKETS_QUERY_KEY = [...SUPPORT_QUERY_KEY, 'list'] as const;

/** GET /support/tickets: the player's tickets, the most recently active first. */
export async function getTickets(): Promise<TicketSummaryBody[]> {
  return dataOf(await api.GET('/support/tickets'));
}

export const ticketsQueryOptions = () =>
  queryOptions({
    queryKey: TICKETS_QUERY_KEY,
    queryFn: getTickets,
  });

export const useTickets = () => useQuery(ticketsQueryOptions());
