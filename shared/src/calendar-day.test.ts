/** @jest-environment node */
import { isCalendarDay, isLaterDay, localMidnight } from './calendar-day';
import { inLocalZone } from './testing/time-zone';

describe('isCalendarDay', () => {
  test('a day the calendar has, written YYYY-MM-DD', () => {
    for (const day of ['2025-03-09', '2024-02-29', '2028-02-29', '2000-02-29', '0000-01-01', '9999-12-31'])
      expect(isCalendarDay(day)).toBe(true);
  });

  test('a day the calendar lacks is none', () => {
    for (const day of [
      '2025-02-29',
      '2026-02-29',
      '1900-02-29',
      '2025-02-30',
      '2025-04-31',
      '2025-13-01',
      '2025-00-10',
      '2025-01-00',
      '2025-01-32',
    ])
      expect(isCalendarDay(day)).toBe(false);
  });

  test('only YYYY-MM-DD is a day', () => {
    for (const text of [
      '2025-3-9',
      '2026-1-5',
      '09-03-2025',
      '2025/03/09',
      '2025-03-09T00:00',
      '20250309',
      ' 2025-03-09',
      '',
    ])
      expect(isCalendarDay(text)).toBe(false);
  });
});

describe('isLaterDay', () => {
  test('the later day of two, not the same day', () => {
    expect(isLaterDay('2025-06-10', '2025-06-09')).toBe(true);
    expect(isLaterDay('2026-01-01', '2025-12-31')).toBe(true);
    expect(isLaterDay('2025-06-09', '2025-06-10')).toBe(false);
    expect(isLaterDay('2025-06-10', '2025-06-10')).toBe(false);
  });

  test('a five-digit year, which a date picker takes when typed, is later than any four-digit one', () => {
    expect(isLaterDay('10000-01-01', '9999-12-31')).toBe(true);
    expect(isLaterDay('9999-12-31', '10000-01-01')).toBe(false);
  });
});

describe('localMidnight', () => {
  test('a day is its local midnight; a day missing from the calendar is null', () => {
    expect(localMidnight('2025-03-09')).toEqual(new Date(2025, 2, 9));
    expect(localMidnight('2024-02-29')).toEqual(new Date(2024, 1, 29));
    expect(localMidnight('2025-02-29')).toBeNull();
    expect(localMidnight('2025-3-9')).toBeNull();
  });

  test('plusDays days later, across months and years', () => {
    expect(localMidnight('2025-01-31', 1)).toEqual(new Date(2025, 1, 1));
    expect(localMidnight('2025-12-31', 1)).toEqual(new Date(2026, 0, 1));
  });

  test('years below 100 are not read as 19xx', () => {
    expect(localMidnight('0050-06-01')!.getFullYear()).toBe(50);
  });

  test('in the local zone; a day whose midnight a clock change skips starts at its first hour', () => {
    expect(inLocalZone('Asia/Kolkata', () => localMidnight('2026-11-01')!.toISOString())).toBe(
      '2026-10-31T18:30:00.000Z',
    );
    // Santiago moves from 24:00 to 01:00 on 2026-09-06: that day has no midnight.
    expect(inLocalZone('America/Santiago', () => localMidnight('2026-09-06')!.toISOString())).toBe(
      '2026-09-06T04:00:00.000Z',
    );
  });
});
