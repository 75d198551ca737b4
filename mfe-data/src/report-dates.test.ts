import { DATE_MESSAGES, rangeError } from './report-dates';

const TODAY = '2025-06-15';

describe('report date rules (docs/errors.md#report-download)', () => {
  test('the messages, verbatim', () => {
    expect(DATE_MESSAGES).toEqual({
      required: 'Both start and end dates are required',
      endAfterToday: 'End date cannot be later than today',
      endBeforeStart: 'End date cannot be before start date',
      startAfterEnd: 'Start date cannot be later than end date',
    });
  });

  test('a valid range, a one-day range and a range ending today have no error', () => {
    expect(rangeError('2025-06-01', '2025-06-10', TODAY, 'end')).toBeNull();
    expect(rangeError('2025-06-10', '2025-06-10', TODAY, 'start')).toBeNull();
    expect(rangeError('2025-06-01', TODAY, TODAY, 'end')).toBeNull();
  });

  test('missing dates are not a range error (the required message covers them)', () => {
    expect(rangeError('', '', TODAY, 'start')).toBeNull();
    expect(rangeError('2025-06-01', '', TODAY, 'start')).toBeNull();
    expect(rangeError('', '2025-06-01', TODAY, 'end')).toBeNull();
  });

  test('end not later than today', () => {
    expect(rangeError('', '2025-06-16', TODAY, 'end')).toBe(DATE_MESSAGES.endAfterToday);
    expect(rangeError('2025-06-01', '2025-06-16', TODAY, 'start')).toBe(DATE_MESSAGES.endAfterToday);
  });

  test('a five-digit year, which a date picker accepts when typed, is later than today', () => {
    expect(rangeError('2025-06-01', '10000-01-01', TODAY, 'end')).toBe(DATE_MESSAGES.endAfterToday);
    expect(rangeError('10000-01-01', '2025-06-01', TODAY, 'start')).toBe(DATE_MESSAGES.startAfterEnd);
  });

  test('end not before start: worded for the end when the end was changed last', () => {
    expect(rangeError('2025-06-10', '2025-06-09', TODAY, 'end')).toBe(DATE_MESSAGES.endBeforeStart);
  });

  test('start not later than end: worded for the start when the start was changed last', () => {
    expect(rangeError('2025-06-10', '2025-06-09', TODAY, 'start')).toBe(DATE_MESSAGES.startAfterEnd);
  });
});
