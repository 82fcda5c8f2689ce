import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import type { TicketBody } from '@/types/api-schema';

import { ticketQueryKey } from './get-ticket';
import { TICKETS_QUERY_KEY } from './get-tickets';
import type { TicketInput } from './schemas';

/**
 * POST /support/tickets, multipart/form-data (category, subject, body, transactionId,
 * attachment; the last two only when given): 201 with the ticket and its first message. 422
 * with errors per field (the image refused by its bytes or size on `attachment`, a transaction
 * that is none of the player's on `transactionId`); 409 when the player opened too many
 * tickets today.
 */
export async function openTicket(input: TicketInput): Promise<TicketBody> {
  const form = new FormData();
  form.append('category', input.category);
  form.append('subject', input.subject.trim());
  form.append('body', input.body.trim());
  if (input.transactionId) form.append('transactionId', input.transactionId);
  if (input.attachment) form.append('attachment', input.attachment, input.attachment.name);
  await getCsrfCookie();
  // The form as built here: the document's TicketForm types the image as a string (format binary),
  // which a File in FormData is on the wire but not to TypeScript.
  const answer = await api.POST('/support/tickets', { body: form as never });
  return dataOf(answer);
}

/** The new ticket joins the list, and its page opens without asking again. */
export function useOpenTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: openTicket,
    onSuccess: (ticket) => {
      queryClient.setQueryData(ticketQueryKey(ticket.ticket.id), ticket);
      void queryClient.invalidateQueries({ queryKey: TICKETS_QUERY_KEY });
    },
  });
}
