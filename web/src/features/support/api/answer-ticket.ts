import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, dataOf, toApiError } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import type { TicketBody } from '@/types/api-schema';

import { ticketQueryKey } from './get-ticket';
import { TICKETS_QUERY_KEY } from './get-tickets';
import type { AnswerInput } from './schemas';

type AnswerRequest = AnswerInput & { ticketId: string };

/**
 * POST /support/tickets/{id}/messages, multipart/form-data (body, attachment when given): 200
 * with the ticket, waiting for support again, and its conversation. 422 per field as a new
 * ticket's; 409 once the ticket is closed; 404 when it is none of the player's.
 */
export async function answerTicket({ ticketId, ...input }: AnswerRequest): Promise<TicketBody> {
  const form = new FormData();
  form.append('body', input.body.trim());
  if (input.attachment) form.append('attachment', input.attachment, input.attachment.name);
  await getCsrfCookie();
  const answer = await api.POST('/support/tickets/{id}/messages', {
    params: { path: { id: ticketId } },
    // The form as built here: the document types the image as a string (format binary).
    body: form as never,
  });
  return dataOf(answer);
}

/** The answer shows at once; a ticket closed meanwhile is read again (its form then goes). */
export function useAnswerTicket(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AnswerInput) => answerTicket({ ...input, ticketId }),
    onSuccess: (ticket) => {
      queryClient.setQueryData(ticketQueryKey(ticketId), ticket);
      void queryClient.invalidateQueries({ queryKey: TICKETS_QUERY_KEY });
    },
    onError: (error) => {
      if (toApiError(error).status === 409) void queryClient.invalidateQueries({ queryKey: ticketQueryKey(ticketId) });
    },
  });
}
