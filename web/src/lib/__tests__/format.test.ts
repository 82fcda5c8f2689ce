import { describe, expect, it } from 'vitest';

import { formatCalendarDate, formatDate, formatDateTime, formatNumber } from '@/lib/format';

describe('formatNumber', () => {
  it('separates thousands with commas', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1,000');
    expect(formatNumber(500000)).toBe('500,000');
    expect(formatNumber(20000000)).toBe('20,000,000');
    expect(formatNumber(-85000)).toBe('-85,000');
  });

  it('shows whole numbers only', () => {
    expect(formatNumber(1234.6)).toBe('1,235');
  });
});

describe('formatDateTime', () => {
  it('shows day/month/year and 24-hour time in local time', () => {
    expect(formatDateTime(new Date(2026, 10, 2, 9, 5, 59))).toBe('02/11/2026 09:05');
    expect(formatDateTime(new Date(2026, 0, 31, 23, 0))).toBe('31/01/2026 23:00');
  });

  it('reads ISO strings as instants', () => {
    const instant = new Date(2026, 10, 22, 17, 30);
    expect(formatDateTime(instant.toISOString())).toBe('22/11/2026 17:30');
  });

  it('leaves a value that is not a date as it is', () => {
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});

describe('formatDate', () => {
  it('shows the day of a moment as day/month/year in local time', () => {
    expect(formatDate(new Date(2026, 11, 27, 23, 59))).toBe('27/12/2026');
    expect(formatDate(new Date(2027, 0, 3, 0, 0).toISOString())).toBe('03/01/2027');
  });

  it('leaves a value that is not a date as it is', () => {
    expect(formatDate('not a date')).toBe('not a date');
  });
});

describe('formatCalendarDate', () => {
  it('shows an API date as day/month/year without moving it across time zones', () => {
    expect(formatCalendarDate('2000-01-15')).toBe('15/01/2000');
    expect(formatCalendarDate('1995-12-31')).toBe('31/12/1995');
  });

  it('leaves a value that is not a calendar date as it is', () => {
    expect(formatCalendarDate('2000-02-30')).toBe('2000-02-30');
    expect(formatCalendarDate('15/01/2000')).toBe('15/01/2000');
  });
});
