// Date formatting for tables, details, chart labels and date inputs.
import { NOT_AVAILABLE } from './records';

/** A number of one or two digits as two: 7 → '07'. */
export const twoDigits = (n: number) => String(n).padStart(2, '0');

/** A day in local time as YYYY-MM-DD, the format of a date input's value and max. */
export function localDate(date: Date = new Date()): string {
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
}

/**
 * Month/day/year, hour and minute in local time, e.g. '03/05/2025, 02:07 PM'; 'N/A' when missing
 * or invalid. Spelt out rather than through Intl.DateTimeFormat('en-US'), whose output is the same:
 * building the first such formatter in a page loads the runtime's date data on the main thread
 * before the pick list's first row can show (docs/architecture.md#first-rows).
 */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return NOT_AVAILABLE;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return NOT_AVAILABLE;
  const hours = date.getHours();
  const day = `${twoDigits(date.getMonth() + 1)}/${twoDigits(date.getDate())}/${date.getFullYear()}`;
  return `${day}, ${twoDigits(hours % 12 || 12)}:${twoDigits(date.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}
