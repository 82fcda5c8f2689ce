import { m } from '@/paraglide/messages';

/** The ticket's categories and statuses, as the server names them. */
export const TICKET_CATEGORIES = ['topup_missing', 'coin_missing', 'account', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];

export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const isOneOf = <T extends string>(values: readonly T[], value: string): value is T =>
  (values as readonly string[]).includes(value);

/** Each status's badge colour: waiting on support, answered, done. */
export const STATUS_PALETTE: Record<TicketStatus, string> = { open: 'orange', answered: 'green', closed: 'gray' };

export const CATEGORY_TEXT = {
  topup_missing: m['support.category.topup_missing'],
  coin_missing: m['support.category.coin_missing'],
  account: m['support.category.account'],
  other: m['support.category.other'],
} satisfies Record<TicketCategory, () => string>;

export const STATUS_TEXT = {
  open: m['support.status.open'],
  answered: m['support.status.answered'],
  closed: m['support.status.closed'],
} satisfies Record<TicketStatus, () => string>;
