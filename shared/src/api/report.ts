// api/generate_csv/ (docs/csv.md#report-download): the records created within a date range, as CSV.
import { Type } from '@sinclair/typebox';
import { Day } from './fields';

// The range's refusals that the server and the console both give (docs/errors.md#report-download).
export const REPORT_DATES_REQUIRED = 'Both start and end dates are required';
export const REPORT_START_AFTER_END = 'Start date cannot be later than end date';

/** A day of the range; a value of another type than text reads as a badly written day. */
const ReportDay = (label: string) => {
  const form = `${label} must be a date in the form YYYY-MM-DD.`;
  return Day({
    missing: REPORT_DATES_REQUIRED,
    type: form,
    pattern: form,
    format: `${label} {value} is not a valid calendar date.`,
  });
};

export const ReportRange = Type.Object({ start_date: ReportDay('Start date'), end_date: ReportDay('End date') });
