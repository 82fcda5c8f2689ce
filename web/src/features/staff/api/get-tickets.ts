import { queryOptions, useQuery } from '@tanstack/react-query';

import { dataOf } from '@/lib/api-client';
import type { TicketSummaryBody } from '@/types/api-schema';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { staffApi } from './staff-client';

export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const isTicketStatus = (value: string): value is TicketStatus =>
  (TICKET_STATUSES as readonly string[]).includes(value);

export const STAFF_TICKETS_QUERY_KEY = [...STAFF_QUERY_KEY, 'tickets'] as const;

/** GET /staff/tickets (every role): every player's tickets of one status or all, most recently active first. */
export async function getTickets(status: TicketStatus | null): Promise<TicketSummaryBody[]> {
  return dataOf(await staffApi.GET('/staff/tickets', { params: { query: status ? { status } : {} } }));
}

export const ticketsQueryOptions = (status: TicketStatus | null) =>
  queryOptions({
    queryKey: [...STAFF_TICKETS_QUERY_KEY, 'list', status ?? 'all'] as const,
    queryFn: () => getTickets(status),
  });

export const useTickets = (status: TicketStatus | null) => useQuery(ticketsQueryOptions(status));
