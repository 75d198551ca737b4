// ISO 8601 dates and date-times of uploaded files (docs/csv.md#columns, created_date).

// YYYY-MM-DD, optionally followed by T (or a space, as spreadsheets write it) and hh:mm[:ss[.fraction]],
// optionally followed by Z or an offset ±hh, ±hhmm or ±hh:mm.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)?)?$/i;

/**
 * The instant the text names, or null when it is not such a date or names one that does not exist
 * (2025-02-30, 24:00). A date alone means local midnight and a date-time without offset local time,
 * both of the server.
 */
export function parseIsoDate(text: string): Date | null {
  const match = ISO.exec(text);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', utcMark, sign, offsetH = '0', offsetM = '0'] = match;
  const year = Number(y);
  const month = Number(mo) - 1;
  const day = Number(d);
  const hours = Number(h);
  const minutes = Number(mi);
  const seconds = Number(s);
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  if (
    month < 0 ||
    month > 11 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hours > 23 ||
    minutes > 59 ||
    seconds > 59
  )
    return null;

  if (utcMark === undefined && sign === undefined) {
    const local = new Date(2000, 0, 1, hours, minutes, seconds, ms);
    // setFullYear, unlike the constructor, takes years 0–99 as they are.
    local.setFullYear(year, month, day);
    return local;
  }
  // Z is an offset of 0.
  const offsetHours = Number(offsetH);
  const offsetMinutes = Number(offsetM);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  return new Date(utcTime(year, month, day, hours, minutes, seconds, ms) - offset * 60_000);
}

function utcTime(
  year: number,
  month: number,
  day: number,
  hours: number,
  minutes: number,
  seconds: number,
  ms: number,
): number {
  if (year >= 100) return Date.UTC(year, month, day, hours, minutes, seconds, ms);
  // Date.UTC takes years 0–99 as 1900–1999.
  const date = new Date(Date.UTC(2000, 0, 1, hours, minutes, seconds, ms));
  date.setUTCFullYear(year, month, day);
  return date.getTime();
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Proleptic Gregorian, like Date. */
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 1 && leap ? 29 : DAYS_IN_MONTH[month]!;
}

/**
 * The instant the text names, as toISOString writes it, or null (parseIsoDate). Text already in
 * that form, as most systems export dates, is read by Date.parse without the pattern: it names a
 * real instant exactly when that instant is written back as the same text (2025-02-30 is not).
 */
export function isoInstant(text: string): string | null {
  if (text.length === 24 && text.charCodeAt(23) === 90 /* Z */) {
    const ms = Date.parse(text);
    if (!Number.isNaN(ms) && new Date(ms).toISOString() === text) return text;
  }
  return parseIsoDate(text)?.toISOString() ?? null;
}
