import { formatDateTime, localDate } from './format';

describe('localDate', () => {
  test('today is the local calendar day as YYYY-MM-DD', () => {
    expect(localDate(new Date(2025, 0, 5, 23, 59))).toBe('2025-01-05');
    expect(localDate(new Date(2024, 11, 31, 0, 0))).toBe('2024-12-31');
  });
});

describe('formatDateTime', () => {
  test('shows month/day/year, hour and minute in local time', () => {
    const iso = new Date(2025, 2, 5, 14, 7, 33).toISOString();
    expect(formatDateTime(iso)).toBe('03/05/2025, 02:07 PM');
  });

  test('shows midnight as 12 AM and noon as 12 PM', () => {
    expect(formatDateTime(new Date(2025, 11, 31, 0, 5).toISOString())).toBe('12/31/2025, 12:05 AM');
    expect(formatDateTime(new Date(2025, 0, 1, 12, 0).toISOString())).toBe('01/01/2025, 12:00 PM');
    expect(formatDateTime(new Date(2025, 0, 1, 11, 59).toISOString())).toBe('01/01/2025, 11:59 AM');
  });

  test("reads as Intl.DateTimeFormat('en-US') does, for every seventh hour over a year", () => {
    const intl = new Intl.DateTimeFormat('en-US', {
      month: '2-digit',
      day: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
    for (let hour = 0; hour < 366 * 24; hour += 7) {
      const date = new Date(2024, 0, 1, hour, hour % 60);
      expect(formatDateTime(date.toISOString())).toBe(intl.format(date).replace(/\u202f/g, ' '));
    }
  });

  test('shows N/A for a missing time', () => {
    expect(formatDateTime(null)).toBe('N/A');
    expect(formatDateTime(undefined)).toBe('N/A');
    expect(formatDateTime('')).toBe('N/A');
  });

  test('shows N/A for an invalid time', () => {
    expect(formatDateTime('not a date')).toBe('N/A');
  });
});
