// Date formatting for tables and details. One formatter instance: building an
// Intl.DateTimeFormat is costly and lists format thousands of cells.
import { NOT_AVAILABLE } from './records';

const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: '2-digit',
  day: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** Month/day/year, hour and minute in local time, e.g. '03/05/2025, 02:07 PM'; 'N/A' when missing or invalid. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return NOT_AVAILABLE;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? NOT_AVAILABLE : dateTimeFormat.format(date);
}
