// The date range of the report download (docs/errors.md#report-download). Dates are the YYYY-MM-DD values of
// <input type="date">; '' is an empty (or incomplete) picker.
import { isLaterDay, REPORT_DATES_REQUIRED, REPORT_START_AFTER_END } from '@veritas/shared/domain';

export const DATE_MESSAGES = {
  required: REPORT_DATES_REQUIRED,
  endAfterToday: 'End date cannot be later than today',
  endBeforeStart: 'End date cannot be before start date',
  startAfterEnd: REPORT_START_AFTER_END,
} as const;

export type DateField = 'start' | 'end';

/**
 * What is wrong with the chosen dates, worded for the field the user changed last; null when
 * nothing is (a missing date is not reported here: see DATE_MESSAGES.required).
 */
export function rangeError(start: string, end: string, today: string, changed: DateField): string | null {
  if (end && isLaterDay(end, today)) return DATE_MESSAGES.endAfterToday;
  if (start && end && isLaterDay(start, end))
    return changed === 'start' ? DATE_MESSAGES.startAfterEnd : DATE_MESSAGES.endBeforeStart;
  return null;
}
