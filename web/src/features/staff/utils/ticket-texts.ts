import { m } from '@/paraglide/messages';

/** A ticket's categories as the server names them; their texts are the player's (support.category). */
const CATEGORIES = ['topup_missing', 'coin_missing', 'account', 'other'] as const;

const CATEGORY_TEXTS = {
  topup_missing: m['support.category.topup_missing'],
  coin_missing: m['support.category.coin_missing'],
  account: m['support.category.account'],
  other: m['support.category.other'],
} satisfies Record<(typeof CATEGORIES)[number], () => string>;

export const ticketCategoryText = (category: string): string =>
  (CATEGORIES as readonly string[]).includes(category)
    ? CATEGORY_TEXTS[category as (typeof CATEGORIES)[number]]()
    : category;

/** Each status's badge colour: waiting on support, answered, done (as the player's side). */
export const TICKET_STATUS_PALETTE: Record<string, string> = { open: 'orange', answered: 'green', closed: 'gray' };

const STATUSES = ['open', 'answered', 'closed'] as const;

const STATUS_TEXTS = {
  open: m['support.status.open'],
  answered: m['support.status.answered'],
  closed: m['support.status.closed'],
} satisfies Record<(typeof STATUSES)[number], () => string>;

/** 'Đang chờ hỗ trợ', 'Đã trả lời' or 'Đã đóng' (the player's words); an unknown one as sent. */
export const ticketStatusText = (status: string): string =>
  (STATUSES as readonly string[]).includes(status) ? STATUS_TEXTS[status as (typeof STATUSES)[number]]() : status;
