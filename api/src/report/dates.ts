// Report dates: calendar days written YYYY-MM-DD, taken in the server's local time.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export const isDayText = (text: string) => DAY.test(text);

/** Local midnight at the start of a YYYY-MM-DD day; null for a day the calendar lacks (2025-02-30). */
export function localMidnight(day: string): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = match.slice(1).map(Number) as [number, number, number];
  // setFullYear, unlike the Date constructor, does not read years 0–99 as 1900–1999.
  const midnight = new Date(0);
  midnight.setFullYear(year, month - 1, date);
  midnight.setHours(0, 0, 0, 0);
  const exists = midnight.getFullYear() === year && midnight.getMonth() === month - 1 && midnight.getDate() === date;
  return exists ? midnight : null;
}

/**
 * Both ends inclusive, in milliseconds since the epoch: compared with created_ms, the created date
 * as the dashboard reads it (src/writes/derived-columns.ts).
 */
export interface TimeRange {
  first: number;
  last: number;
}

/** From the first millisecond of the start day to the last millisecond of the end day. */
export function dayRange(start: Date, end: Date): TimeRange {
  const dayAfterEnd = new Date(end);
  dayAfterEnd.setDate(dayAfterEnd.getDate() + 1);
  return { first: start.getTime(), last: dayAfterEnd.getTime() - 1 };
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * An instant written ISO 8601 with its offset (2026-11-24T09:30:00+05:30), of a day the calendar
 * has: Date.parse alone takes 2026-02-30 for 2 March.
 */
export function isInstant(text: string): boolean {
  const match = INSTANT.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = match.slice(1);
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day) &&
    Number(hour) < 24 &&
    Number(minute) < 60 &&
    Number(second) < 60 &&
    Number(offsetHours) < 24 &&
    Number(offsetMinutes) < 60 &&
    Number.isFinite(Date.parse(text))
  );
}
