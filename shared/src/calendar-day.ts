// Calendar days written YYYY-MM-DD: what a date picker holds, a filter's day in a URL, and the
// API's format `calendar-day`. Plain functions without the schemas of ./api/, so a remote that
// reads days carries no TypeBox code.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** Year, month (1–12) and day of the month of `text`; null unless it is a day the calendar has. */
function dayParts(text: string): [year: number, month: number, date: number] | null {
  const match = DAY.exec(text);
  if (!match) return null;
  const [year, month, date] = match.slice(1).map(Number) as [number, number, number];
  const monthDays = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return monthDays !== undefined && date >= 1 && date <= monthDays ? [year, month, date] : null;
}

/** Whether `text` is a day the calendar has, written YYYY-MM-DD: 2028-02-29 is, 2026-02-29 and 2026-1-5 are not. */
export const isCalendarDay = (text: string): boolean => dayParts(text) !== null;

/**
 * Whether day `a` comes after day `b`, both YYYY-MM-DD. A date picker takes years past 9999, and
 * '10000-01-01' sorts before '2025-01-01' as text: the longer text is the later day.
 */
export const isLaterDay = (a: string, b: string): boolean => (a.length !== b.length ? a.length > b.length : a > b);

/**
 * Local midnight at the start of the day `plusDays` days after `day` (YYYY-MM-DD); null when
 * `day` is not a calendar day.
 */
export function localMidnight(day: string, plusDays = 0): Date | null {
  const parts = dayParts(day);
  if (!parts) return null;
  const [year, month, date] = parts;
  // setFullYear, unlike the Date constructor, does not read years 0–99 as 1900–1999.
  const midnight = new Date(0);
  midnight.setFullYear(year, month - 1, date + plusDays);
  midnight.setHours(0, 0, 0, 0);
  return midnight;
}
