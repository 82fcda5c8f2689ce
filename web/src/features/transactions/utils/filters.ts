import { z } from 'zod';

import { isIsoDate } from '@/lib/date';
import { m } from '@/paraglide/messages';

/** The types the full history lists (GET /transactions); related transactions show inside them. */
export const FILTER_TYPES = [
  'topup.bank-transfer',
  'topup.e-wallet',
  'topup.card',
  'credit.pay',
  'giftcode',
  'adjustment',
] as const;
export const FILTER_STATUSES = ['pending', 'success', 'failed'] as const;

/** The filters, in the order the form shows them and the query string carries them. */
export const FILTER_FIELDS = ['type', 'status', 'from', 'to'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/**
 * The full history's filters as the query string of /transactions/all carries them, and as
 * GET /transactions and its CSV export take them: '' is no filter; `from` and `to` are days
 * (YYYY-MM-DD, Vietnam time, both included).
 */
export type TransactionFilters = Record<FilterField, string>;

export const NO_FILTERS: TransactionFilters = { type: '', status: '', from: '', to: '' };

/** The filters of a page's query string, as given (the server judges what the form did not). */
export function filtersFromSearch(search: URLSearchParams): TransactionFilters {
  return {
    type: search.get('type')?.trim() ?? '',
    status: search.get('status')?.trim() ?? '',
    from: search.get('from')?.trim() ?? '',
    to: search.get('to')?.trim() ?? '',
  };
}

/** The filters that are set, in a fixed order: the query string of the page and of the calls. */
export function filtersToSearch(filters: TransactionFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const field of FILTER_FIELDS) {
    const value = filters[field].trim();
    if (value) search.set(field, value);
  }
  return search;
}

export const hasFilters = (filters: TransactionFilters) => FILTER_FIELDS.some((field) => filters[field] !== '');

const day = z.string().refine((value) => value === '' || isIsoDate(value), m['transactions.all.validation.date']());

/**
 * The filter form: a known type and status or none, real days, and an end not before the start
 * (as the server checks them; spec-less, its messages are the server's). Messages are the texts shown.
 */
export const filtersSchema = z
  .object({
    type: z.enum(['', ...FILTER_TYPES], { error: m['transactions.all.validation.type']() }),
    status: z.enum(['', ...FILTER_STATUSES], { error: m['transactions.all.validation.status']() }),
    from: day,
    to: day,
  })
  .refine((filters) => !filters.from || !filters.to || filters.from <= filters.to, {
    path: ['to'],
    error: m['transactions.all.validation.range'](),
  });

export type FiltersInput = z.input<typeof filtersSchema>;
