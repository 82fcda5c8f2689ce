import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { dataOf } from '@/lib/api-client';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';
import type { TicketBody } from '@/types/api-schema';
import type { components } from '@/types/openapi.gen';

import { STAFF_QUERY_KEY } from './get-staff-me';
import { STAFF_TICKETS_QUERY_KEY } from './get-tickets';
import { ticketQueryOptions } from './get-ticket';
import { staffApi } from './staff-client';

/** The longest message the server keeps (as a player's). */
export const REPLY_MAX = apiLimits.ReplyBody.body.maxLength;

/** The reply and whether it closes the ticket, with the texts the form shows. */
export const replyInputSchema = z.object({
  body: z
    .string()
    .trim()
    .min(1, m['staff.tickets.validation.bodyRequired']())
    .max(REPLY_MAX, m['staff.tickets.validation.bodyTooLong']()),
  close: z.boolean(),
});
export type ReplyInput = z.infer<typeof replyInputSchema>;

/**
 * POST /staff/tickets/{id}/reply (support): the reply joins the conversation and the player is
 * mailed; with `close` the ticket is closed too. The ticket as it is now.
 */
export async function replyTicket({ ticketId, body, close }: ReplyInput & { ticketId: string }): Promise<TicketBody> {
  const request: components['schemas']['ReplyBody'] = { body: body.trim(), close };
  return dataOf(
    await staffApi.POST('/staff/tickets/{id}/reply', { params: { path: { id: ticketId } }, body: request }),
  );
}

/** The ticket as answered replaces the one shown; the lists (and a player's page) are read again. */
export function useReplyTicket(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReplyInput) => replyTicket({ ...input, ticketId }),
    onSuccess: (ticket) => queryClient.setQueryData(ticketQueryOptions(ticketId).queryKey, ticket),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: STAFF_TICKETS_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: [...STAFF_QUERY_KEY, 'player'] });
    },
  });
}
