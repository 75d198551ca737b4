// The dashboard's days in a named time zone: what localDays() (dashboard-stats.ts) computes in a
// runtime whose local zone is that zone, computed in any runtime with Intl.DateTimeFormat, so the
// API can count the days of the viewer's zone. The browser builds each day's start as
// `new Date(y, m, d - i)`; ECMAScript (and V8, through ICU) reads a local time that does not exist
// (skipped by a daylight saving change) or exists twice (repeated by one) with the offset in force
// before the change, and so does this.
import type { DashboardDays } from './dashboard-stats';
import { twoDigits } from './format';

const DAY_MS = 86_400_000;
/** Formatters are costly to build: one per zone, as Intl names it; a bound on how many are kept. */
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 1000;

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = FORMATTERS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (FORMATTERS.size >= MAX_FORMATTERS) FORMATTERS.clear();
    FORMATTERS.set(timeZone, format);
  }
  return format;
}

/** Whether this runtime knows `zone` as a time zone (an IANA name such as 'Asia/Kolkata'; case aside). */
export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

interface WallTime {
  year: number;
  /** 0–11 */
  month: number;
  day: number;
  /** The wall-clock reading as if it were UTC: ms since the epoch, whole seconds. */
  value: number;
}

/** Milliseconds of a UTC calendar reading, for any year (Date.UTC reads years 0–99 as 19xx). */
function utcValue(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(Date.UTC(2000, month, day, hour, minute, second));
  date.setUTCFullYear(year + date.getUTCFullYear() - 2000);
  return date.getTime();
}

/** The wall-clock reading in `timeZone` of the instant `ms` (to the second). */
function wallTime(ms: number, timeZone: string): WallTime {
  const fields: Record<string, string> = {};
  for (const { type, value } of formatter(timeZone).formatToParts(ms)) fields[type] = value;
  const era = Number(fields.year);
  const year = fields.era === 'BC' || fields.era === 'B' ? 1 - era : era;
  const month = Number(fields.month) - 1;
  const day = Number(fields.day);
  return {
    year,
    month,
    day,
    value: utcValue(year, month, day, Number(fields.hour) % 24, Number(fields.minute), Number(fields.second)),
  };
}

/** The zone's offset from UTC at the instant `ms`, in ms; each instant asked once per calendar. */
function offsets(timeZone: string): (ms: number) => number {
  const known = new Map<number, number>();
  return (ms) => {
    const second = Math.floor(ms / 1000) * 1000;
    let offset = known.get(second);
    if (offset === undefined) known.set(second, (offset = wallTime(second, timeZone).value - second));
    return offset;
  };
}

/**
 * The instant a local time value (a wall-clock reading as ms, as MakeDate builds it) names, by
 * ECMAScript's UTC(t): of two instants (a repeated hour) the earlier; none (a skipped hour), the
 * reading with the offset in force before the change, which is later than the change. Zones
 * change their offset at most once within two days, so the offsets a day before and a day after
 * are the only candidates.
 */
function instantOf(local: number, offsetAt: (ms: number) => number): { instant: number; skipped: boolean } {
  const before = offsetAt(local - DAY_MS);
  const after = offsetAt(local + DAY_MS);
  let found = Number.NaN;
  for (const offset of before === after ? [before] : [before, after]) {
    const candidate = local - offset;
    if (offsetAt(candidate) === offset && !(candidate >= found)) found = candidate;
  }
  return Number.isNaN(found) ? { instant: local - before, skipped: true } : { instant: found, skipped: false };
}

/**
 * The days of a timeframe in `timeZone` (an IANA name Intl knows, see isTimeZone): today of `now`
 * and the `days` - 1 days before it, as localDays(days, now) gives them in a runtime whose local
 * zone is `timeZone`, labels included.
 */
export function zoneDays(days: number, now: Date, timeZone: string): DashboardDays {
  const today = wallTime(now.getTime(), timeZone);
  const offsetAt = offsets(timeZone);
  const starts: number[] = [];
  const labels: string[] = [];
  for (let i = days - 1; i >= -1; i--) {
    // Date.UTC carries a day number out of its month (and reads years 0–99 as 19xx), as new Date(y, m, d) does.
    const local = Date.UTC(today.year, today.month, today.day - i);
    const { instant, skipped } = instantOf(local, offsetAt);
    starts.push(instant);
    if (i < 0) break;
    // The label is the day the start falls on: the day asked for, unless its midnight was skipped.
    const day = skipped
      ? wallTime(instant, timeZone)
      : { month: new Date(local).getUTCMonth(), day: new Date(local).getUTCDate() };
    labels.push(`${twoDigits(day.month + 1)}/${twoDigits(day.day)}`);
  }
  return { starts, labels };
}
