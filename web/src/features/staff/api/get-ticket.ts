import { queryOptions, useQuery } from '@tanstack/react-query';

import { env } from '@/config/env';
import { dataOf } from '@/lib/api-client';
import type { TicketBody } from '@/types/api-schema';

import { STAFF_TICKETS_QUERY_KEY } from './get-tickets';
import { staffApi } from './staff-client';

/** GET /staff/tickets/{id} (every role): a ticket and its conversation, oldest message first. */
export async function getTicket(id: string): Promise<TicketBody> {
  return dataOf(await staffApi.GET('/staff/tickets/{id}', { params: { path: { id } } }));
}

export const ticketQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...STAFF_TICKETS_QUERY_KEY, 'ticket', id] as const,
    queryFn: () => getTicket(id),
  });

export const useTicket = (id: string) => useQuery(ticketQueryOptions(id));

/**
 * GET /staff/attachments/{id}: a player's image, served on this site with the console's session
 * cookie (an <img> sends it as a same-origin request).
 */
export const staffAttachmentUrl = (id: string) => `${env.API_URL}/staff/attachments/${encodeURIComponent(id)}`;
