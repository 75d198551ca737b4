// The date range of the report download (docs/errors.md#report-download). Dates are the YYYY-MM-DD values of
// <input type="date">; '' is an empty (or incomplete) picker.

export const DATE_MESSAGES = {
  required: 'Both start and end dates are required',
  endAfterToday: 'End date cannot be later than today',
  endBeforeStart: 'End date cannot be before start date',
  startAfterEnd: 'Start date cannot be later than end date',
} as const;

export type DateField = 'start' | 'end';

// A picker accepts years past 9999, and '10000-01-01' sorts before '2025-01-01' as text: a longer
// value is the later day.
function isAfter(a: string, b: string): boolean {
  return a.length !== b.length ? a.length > b.length : a > b;
}

/**
 * What is wrong with the chosen dates, worded for the field the user changed last; null when
 * nothing is (a missing date is not reported here: see DATE_MESSAGES.required).
 */
export function rangeError(start: string, end: string, today: string, changed: DateField): string | null {
  if (end && isAfter(end, today)) return DATE_MESSAGES.endAfterToday;
  if (start && end && isAfter(start, end))
    return changed === 'start' ? DATE_MESSAGES.startAfterEnd : DATE_MESSAGES.endBeforeStart;
  return null;
}
