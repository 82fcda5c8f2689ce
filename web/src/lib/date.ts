/**
 * Calendar dates as the API sends them ("YYYY-MM-DD", no time zone) and the rules of the
 * day / month / year input (spec section 5, "Date input").
 */

export const DAY_DIGITS = 2;
export const MONTH_DIGITS = 2;
export const YEAR_DIGITS = 4;
/** The date input accepts dates from this many years ago up to today unless told otherwise. */
export const DEFAULT_MIN_YEARS_AGO = 100;

export type DateParts = { day: string; month: string; year: string };
export type DatePart = keyof DateParts;
export type PartStatus = 'empty' | 'valid' | 'invalid';
export type DateBounds = { min: Date; max: Date };

export const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a month (1-12); without a year February may have 29. */
export function daysInMonth(month: number, year?: number): number {
  if (month === 2) return year === undefined || isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (value: number, length: number) => String(value).padStart(length, '0');

/** A local date as "YYYY-MM-DD". */
export function formatIsoDate(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}`;
}

/** The same calendar day `years` years before `from` (29 February becomes 28 February). */
export function yearsAgo(years: number, from: Date = new Date()): Date {
  const year = from.getFullYear() - years;
  const month = from.getMonth();
  return new Date(year, month, Math.min(from.getDate(), daysInMonth(month + 1, year)));
}

export function defaultDateBounds(today: Date = new Date()): DateBounds {
  return { min: yearsAgo(DEFAULT_MIN_YEARS_AGO, today), max: today };
}

/** "YYYY-MM-DD" → parts, or empty parts for anything else. */
export function isoToParts(value: string | null | undefined): DateParts {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  if (!match) return { day: '', month: '', year: '' };
  return { year: match[1] ?? '', month: match[2] ?? '', day: match[3] ?? '' };
}

/** True for a real calendar date written "YYYY-MM-DD". */
export function isIsoDate(value: string): boolean {
  const parts = isoToParts(value);
  const [day, month, year] = [Number(parts.day), Number(parts.month), Number(parts.year)];
  return !!parts.year && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(month, year);
}

/** Whoever was born on `iso` is at least `years` old on `today`. */
export function isAtLeastYearsOld(iso: string, years: number, today: Date = new Date()): boolean {
  return iso <= formatIsoDate(yearsAgo(years, today));
}

/** Whoever was born on `iso` is not older than `years` on `today`. */
export function isAtMostYearsOld(iso: string, years: number, today: Date = new Date()): boolean {
  return iso >= formatIsoDate(yearsAgo(years, today));
}

const digitsOnly = (raw: string) => raw.replace(/\D/g, '');

/** What the day part holds after typing `raw`: digits only, at most 2, capped at 31. */
export function normalizeDay(raw: string): string {
  const digits = digitsOnly(raw).slice(0, DAY_DIGITS);
  return Number(digits) > 31 ? '31' : digits;
}

/** What the month part holds after typing `raw`: digits only, at most 2, capped at 12. */
export function normalizeMonth(raw: string): string {
  const digits = digitsOnly(raw).slice(0, MONTH_DIGITS);
  return Number(digits) > 12 ? '12' : digits;
}

/** What the year part holds after typing `raw`: digits only, at most 4. */
export function normalizeYear(raw: string): string {
  return digitsOnly(raw).slice(0, YEAR_DIGITS);
}

export const normalizePart: Record<DatePart, (raw: string) => string> = {
  day: normalizeDay,
  month: normalizeMonth,
  year: normalizeYear,
};

/**
 * Each part judged as typed: the year needs 4 digits within the bounds' years; the month 1-12
 * and, in a boundary year, not beyond the boundary's month; the day a real day of that month
 * (of that year when the year is valid, so 29 February needs a leap year) and, in a boundary
 * month, not beyond the boundary's day.
 */
export function datePartStatus(parts: DateParts, bounds: DateBounds): Record<DatePart, PartStatus> {
  const { min, max } = bounds;
  const [minYear, minMonth, minDay] = [min.getFullYear(), min.getMonth() + 1, min.getDate()];
  const [maxYear, maxMonth, maxDay] = [max.getFullYear(), max.getMonth() + 1, max.getDate()];

  const year = Number(parts.year);
  const yearStatus: PartStatus = !parts.year
    ? 'empty'
    : parts.year.length === YEAR_DIGITS && year >= minYear && year <= maxYear
      ? 'valid'
      : 'invalid';
  const knownYear = yearStatus === 'valid' ? year : undefined;

  const month = Number(parts.month);
  let monthStatus: PartStatus = !parts.month ? 'empty' : month >= 1 && month <= 12 ? 'valid' : 'invalid';
  if (monthStatus === 'valid' && knownYear !== undefined) {
    if ((knownYear === maxYear && month > maxMonth) || (knownYear === minYear && month < minMonth)) {
      monthStatus = 'invalid';
    }
  }
  const knownMonth = monthStatus === 'valid' ? month : undefined;

  const day = Number(parts.day);
  const lastDay = knownMonth === undefined ? 31 : daysInMonth(knownMonth, knownYear);
  let dayStatus: PartStatus = !parts.day ? 'empty' : day >= 1 && day <= lastDay ? 'valid' : 'invalid';
  if (dayStatus === 'valid' && knownYear !== undefined && knownMonth !== undefined) {
    const tooLate = knownYear === maxYear && knownMonth === maxMonth && day > maxDay;
    const tooEarly = knownYear === minYear && knownMonth === minMonth && day < minDay;
    if (tooLate || tooEarly) dayStatus = 'invalid';
  }

  return { day: dayStatus, month: monthStatus, year: yearStatus };
}

/** "YYYY-MM-DD" when every part is valid, otherwise null (an incomplete date has no value). */
export function partsToIso(parts: DateParts, bounds: DateBounds): string | null {
  const status = datePartStatus(parts, bounds);
  if (status.day !== 'valid' || status.month !== 'valid' || status.year !== 'valid') return null;
  return `${parts.year}-${pad(Number(parts.month), 2)}-${pad(Number(parts.day), 2)}`;
}
