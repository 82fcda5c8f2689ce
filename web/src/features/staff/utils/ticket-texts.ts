import type { TFunction } from 'i18next';

/** A ticket's categories as the server names them; their texts are the player's (support.category). */
const CATEGORIES = ['topup_missing', 'coin_missing', 'account', 'other'] as const;

export const ticketCategoryText = (t: TFunction, category: string): string =>
  (CATEGORIES as readonly string[]).includes(category) ? t(`support.category.${category as (typeof CATEGORIES)[number]}`) : category;

/** Each status's badge colour: waiting on support, answered, done (as the player's side). */
export const TICKET_STATUS_PALETTE: Record<string, string> = { open: 'orange', answered: 'green', closed: 'gray' };

const STATUSES = ['open', 'answered', 'closed'] as const;

/** 'Đang chờ hỗ trợ', 'Đã trả lời' or 'Đã đóng' (the player's words); an unknown one as sent. */
export const ticketStatusText = (t: TFunction, status: string): string =>
  (STATUSES as readonly string[]).includes(status) ? t(`support.status.${status as (typeof STATUSES)[number]}`) : status;
