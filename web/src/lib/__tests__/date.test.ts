import { describe, expect, it } from 'vitest';

import {
  datePartStatus,
  daysInMonth,
  defaultDateBounds,
  formatIsoDate,
  isAtLeastYearsOld,
  isAtMostYearsOld,
  isIsoDate,
  isLeapYear,
  isoToParts,
  normalizeDay,
  normalizeMonth,
  normalizeYear,
  partsToIso,
  yearsAgo,
  type DateParts,
} from '@/lib/date';

const bounds = { min: new Date(1925, 5, 15), max: new Date(2025, 5, 15) };
const parts = (day: string, month: string, year: string): DateParts => ({ day, month, year });

describe('calendar', () => {
  it('knows leap years', () => {
    expect([2000, 2024, 1996].map(isLeapYear)).toEqual([true, true, true]);
    expect([1900, 2023, 2100].map(isLeapYear)).toEqual([false, false, false]);
  });

  it('knows the days of each month', () => {
    expect(daysInMonth(1, 2023)).toBe(31);
    expect(daysInMonth(4, 2023)).toBe(30);
    expect(daysInMonth(2, 2023)).toBe(28);
    expect(daysInMonth(2, 2024)).toBe(29);
    expect(daysInMonth(2)).toBe(29);
  });

  it('counts years back to the same day, 29 February becoming 28 February', () => {
    expect(formatIsoDate(yearsAgo(13, new Date(2025, 5, 15)))).toBe('2012-06-15');
    expect(formatIsoDate(yearsAgo(13, new Date(2024, 1, 29)))).toBe('2011-02-28');
    expect(formatIsoDate(yearsAgo(100, new Date(2025, 0, 1)))).toBe('1925-01-01');
  });

  it('defaults to the range from 100 years ago to today', () => {
    const today = new Date(2025, 5, 15);
    const { min, max } = defaultDateBounds(today);
    expect(formatIsoDate(min)).toBe('1925-06-15');
    expect(max).toBe(today);
  });

  it('checks ages', () => {
    const today = new Date(2025, 5, 15);
    expect(isAtLeastYearsOld('2012-06-15', 13, today)).toBe(true);
    expect(isAtLeastYearsOld('2012-06-16', 13, today)).toBe(false);
    expect(isAtMostYearsOld('1925-06-15', 100, today)).toBe(true);
    expect(isAtMostYearsOld('1925-06-14', 100, today)).toBe(false);
  });

  it('reads and checks "YYYY-MM-DD"', () => {
    expect(isoToParts('2000-03-05')).toEqual({ day: '05', month: '03', year: '2000' });
    expect(isoToParts('5/3/2000')).toEqual({ day: '', month: '', year: '' });
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2023-13-01')).toBe(false);
    expect(isIsoDate('')).toBe(false);
  });
});

describe('date input parts', () => {
  it('keep digits only and cap day at 31, month at 12, year at 4 digits', () => {
    expect(normalizeDay('45')).toBe('31');
    expect(normalizeDay('3a1')).toBe('31');
    expect(normalizeDay('123')).toBe('12');
    expect(normalizeDay('07')).toBe('07');
    expect(normalizeMonth('13')).toBe('12');
    expect(normalizeMonth('99')).toBe('12');
    expect(normalizeMonth('7')).toBe('7');
    expect(normalizeYear('19900')).toBe('1990');
    expect(normalizeYear('20-0')).toBe('200');
  });

  it('are empty, valid or invalid', () => {
    expect(datePartStatus(parts('', '', ''), bounds)).toEqual({ day: 'empty', month: 'empty', year: 'empty' });
    expect(datePartStatus(parts('5', '3', '2000'), bounds)).toEqual({ day: 'valid', month: 'valid', year: 'valid' });
    expect(datePartStatus(parts('0', '00', '200'), bounds)).toEqual({
      day: 'invalid',
      month: 'invalid',
      year: 'invalid',
    });
  });

  it('check the day against the real days of the month, leap years included', () => {
    expect(datePartStatus(parts('31', '04', '2000'), bounds).day).toBe('invalid');
    expect(datePartStatus(parts('30', '04', '2000'), bounds).day).toBe('valid');
    expect(datePartStatus(parts('29', '02', '2023'), bounds).day).toBe('invalid');
    expect(datePartStatus(parts('29', '02', '2024'), bounds).day).toBe('valid');
    expect(datePartStatus(parts('29', '02', '1900'), { ...bounds, min: new Date(1900, 0, 1) }).day).toBe('invalid');
    // Until the year is known, 29 February may still be right.
    expect(datePartStatus(parts('29', '02', ''), bounds).day).toBe('valid');
    expect(datePartStatus(parts('30', '02', ''), bounds).day).toBe('invalid');
  });

  it('check the year against the bounds, and month and day in a boundary year', () => {
    expect(datePartStatus(parts('1', '1', '2026'), bounds).year).toBe('invalid');
    expect(datePartStatus(parts('1', '1', '1924'), bounds).year).toBe('invalid');
    expect(datePartStatus(parts('1', '07', '2025'), bounds)).toMatchObject({ month: 'invalid', year: 'valid' });
    expect(datePartStatus(parts('16', '06', '2025'), bounds)).toMatchObject({ day: 'invalid', month: 'valid' });
    expect(datePartStatus(parts('15', '06', '2025'), bounds).day).toBe('valid');
    expect(datePartStatus(parts('31', '05', '2025'), bounds).day).toBe('valid');
    expect(datePartStatus(parts('1', '05', '1925'), bounds).month).toBe('invalid');
    expect(datePartStatus(parts('14', '06', '1925'), bounds).day).toBe('invalid');
    expect(datePartStatus(parts('15', '06', '1925'), bounds).day).toBe('valid');
  });

  it('yield a date only when all are valid', () => {
    expect(partsToIso(parts('5', '3', '2000'), bounds)).toBe('2000-03-05');
    expect(partsToIso(parts('29', '02', '2024'), bounds)).toBe('2024-02-29');
    expect(partsToIso(parts('29', '02', '2023'), bounds)).toBeNull();
    expect(partsToIso(parts('5', '3', '200'), bounds)).toBeNull();
    expect(partsToIso(parts('', '3', '2000'), bounds)).toBeNull();
    expect(partsToIso(parts('16', '06', '2025'), bounds)).toBeNull();
  });
});
