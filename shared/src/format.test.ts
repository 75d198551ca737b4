import { formatDateTime } from './format';

describe('formatDateTime', () => {
  test('shows month/day/year, hour and minute in local time', () => {
    const iso = new Date(2025, 2, 5, 14, 7, 33).toISOString();
    expect(formatDateTime(iso)).toBe('03/05/2025, 02:07 PM');
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
