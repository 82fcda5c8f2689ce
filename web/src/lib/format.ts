/** Numbers and times as the portal shows them (spec section 9). */

import { isIsoDate, isoToParts } from './date';

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** An amount with comma thousands separators: 500000 → "500,000". */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

const pad2 = (value: number) => String(value).padStart(2, '0');

/**
 * A moment as "dd/MM/yyyy HH:mm" in the browser's time zone; a value that is not a date is
 * returned as given rather than shown as "NaN".
 */
export function formatDateTime(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return `${formatDate(date)} ${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

/**
 * The day of a moment as "dd/MM/yyyy" in the browser's time zone; a value that is not a date is
 * returned as given.
 */
export function formatDate(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return `${pad2(date.getDate())}/${pad2(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/**
 * A calendar date as the API sends it ("YYYY-MM-DD", e.g. a birth date) as "dd/MM/yyyy", with
 * no time zone involved; anything else is returned as given.
 */
export function formatCalendarDate(iso: string): string {
  if (!isIsoDate(iso)) return iso;
  const { day, month, year } = isoToParts(iso);
  return `${day}/${month}/${year}`;
}
