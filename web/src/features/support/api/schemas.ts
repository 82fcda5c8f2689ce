import { z } from 'zod';

import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';

import { MAX_ATTACHMENT_BYTES } from '../utils/attachment';
import { isOneOf, TICKET_CATEGORIES } from '../utils/ticket-text';

/** The server's limits, in characters once trimmed. */
export const SUBJECT_MAX_LENGTH = apiLimits.TicketForm.subject.maxLength;
export const BODY_MAX_LENGTH = apiLimits.TicketForm.body.maxLength;

const length = (text: string) => [...text].length;

/** What happened: trimmed, required, at most BODY_MAX_LENGTH characters. */
const body = z
  .string()
  .trim()
  .min(1, m['support.validation.bodyRequired']())
  .refine((text) => length(text) <= BODY_MAX_LENGTH, m['support.validation.bodyLong']());

/**
 * An image, optional, at most 5 MB: said as soon as it is picked. Whether it is a PNG, JPEG or
 * WebP the server judges by its bytes (the picker only offers those types).
 */
const attachment = z
  // Not z.instanceof(File): its code would join the zod chunk that every form of the app loads.
  .custom<File | null>((value) => value === null || value instanceof File)
  .refine((file) => !file || file.size <= MAX_ATTACHMENT_BYTES, m['support.validation.attachmentSize']());

/**
 * A new ticket's form. Messages are the texts shown, worded as the server's. `transactionId` is
 * the id of one of the player's transactions, '' for none.
 */
export const ticketInputSchema = z.object({
  category: z
    .string()
    .refine((category) => isOneOf(TICKET_CATEGORIES, category), m['support.validation.categoryRequired']()),
  subject: z
    .string()
    .trim()
    .min(1, m['support.validation.subjectRequired']())
    .refine((text) => length(text) <= SUBJECT_MAX_LENGTH, m['support.validation.subjectLong']()),
  body,
  transactionId: z.string(),
  attachment,
});

export type TicketInput = z.input<typeof ticketInputSchema>;
export type TicketField = keyof TicketInput;

/** An answer on a ticket: what the player writes, and an image. */
export const answerInputSchema = z.object({ body, attachment });

export type AnswerInput = z.input<typeof answerInputSchema>;
export type AnswerField = keyof AnswerInput;
