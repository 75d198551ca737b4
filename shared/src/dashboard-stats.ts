// The dashboard's figures (docs/dashboard.md): tiles, daily series, error distribution and the
// top-five tables. Pure: no React, no chart.js, no DOM, so the console and the API run this one
// implementation. The counting rule is one function, recordCounters (what a record adds to which
// counter); then two steps:
//   - a tally (DashboardTally) takes records, applying the rule (`add`, `addRecords`), or counts
//     the server already summed (the `add…` methods below them);
//   - `finish` turns the tally into DashboardStats: percentages, pie slices, rankings, day labels.
// dashboardStats() is the console's whole computation over api/get_status/'s records, in one pass,
// on the days of the browser's local time zone; the API's api/dashboard/ fills the same tally from
// its summaries, on the days of the viewer's zone (zone-calendar.ts), and finishes it here too.
import { deviceError } from './errors';
import { twoDigits } from './format';
import { ALL_HUBS } from './roles';
import type { DashboardStats, ErrorSlice, RankRow } from './api/dashboard';
import type { DeviceRecord } from './types';

export const TIMEFRAMES = [
  { value: 'today', label: 'Today', days: 1 },
  { value: 'last7', label: 'Last 7 Days', days: 7 },
  { value: 'last15', label: 'Last 15 Days', days: 15 },
  { value: 'last30', label: 'Last 30 Days', days: 30 },
] as const;

export type Timeframe = (typeof TIMEFRAMES)[number]['value'];

export const DEFAULT_TIMEFRAME: Timeframe = 'last30';

export function isTimeframe(value: string | null): value is Timeframe {
  return TIMEFRAMES.some((t) => t.value === value);
}

/** The number of days a timeframe counts (today and the days before it). */
export function timeframeDays(timeframe: Timeframe): number {
  return TIMEFRAMES.find((t) => t.value === timeframe)!.days;
}

export interface Selection {
  /** ALL_HUBS or a hub code (compared ignoring case). */
  hub: string;
  timeframe: Timeframe;
}

/**
 * docs/dashboard.md#error-distribution: passed green, one distinct colour per code E003–E010, in
 * slice order; each 3:1 or more against the white between slices.
 */
const PIE_COLORS: readonly [key: string, color: string][] = [
  ['passed', '#1e8e3e'],
  ['E003', '#d93025'],
  ['E004', '#9c6500'],
  ['E005', '#8e24aa'],
  ['E006', '#1a73e8'],
  ['E007', '#e8710a'],
  ['E008', '#00897b'],
  ['E009', '#c2185b'],
  ['E010', '#5d4037'],
];

/** The results the pie counts, in slice order; any other result is left out of it. */
export const PIE_RESULTS: readonly string[] = PIE_COLORS.map(([key]) => key);

/** The pie's only slice when nothing was submitted. */
export const NO_INPUTS_SLICE: ErrorSlice = {
  key: 'none',
  label: 'No Inputs',
  tooltip: 'No Inputs',
  color: '#bdc1c6',
  count: 1,
};

/** part / whole × 100 with two decimals and '%'; '0.00%' when whole is 0. */
export function formatPercent(part: number, whole: number): string {
  return `${(whole ? (part / whole) * 100 : 0).toFixed(2)}%`;
}

/**
 * The days of a timeframe: `starts` holds each day's first millisecond, oldest first, plus the end
 * of the last day (N + 1 instants); `labels` the days as 'MM/DD'. A day of 23 or 25 hours (DST)
 * is still one day.
 */
export interface DashboardDays {
  starts: number[];
  labels: string[];
}

/** The runtime's local midnights of today and the `days` - 1 days before it, from calendar fields. */
export function localDays(days: number, now: Date): DashboardDays {
  const starts: number[] = [];
  for (let i = days - 1; i >= -1; i--)
    starts.push(new Date(now.getFullYear(), now.getMonth(), now.getDate() - i).getTime());
  const labels = starts.slice(0, days).map((start) => {
    const day = new Date(start);
    return `${twoDigits(day.getMonth() + 1)}/${twoDigits(day.getDate())}`;
  });
  return { starts, labels };
}

/** The number in text[from, to), or NaN unless all digits. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return NaN;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Date.parse, with a fast path for the API's form 'YYYY-MM-DDTHH:MM:SS.sssZ': parsing is most of
 * the aggregation's time, and this halves it. Anything else, or out of range, goes to Date.parse.
 */
export function parseTime(text: string): number {
  if (
    text.length === 24 &&
    text[23] === 'Z' &&
    text[4] === '-' &&
    text[7] === '-' &&
    text[10] === 'T' &&
    text[13] === ':' &&
    text[16] === ':' &&
    text[19] === '.'
  ) {
    const year = digits(text, 0, 4);
    const month = digits(text, 5, 7);
    const day = digits(text, 8, 10);
    const hour = digits(text, 11, 13);
    const minute = digits(text, 14, 16);
    const second = digits(text, 17, 19);
    // NaN fails these comparisons too; Date.UTC would read years below 100 as 19xx.
    if (
      year >= 100 &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= 31 &&
      hour <= 23 &&
      minute <= 59 &&
      second <= 59
    ) {
      return Date.UTC(year, month - 1, day, hour, minute, second, digits(text, 20, 23));
    }
  }
  return Date.parse(text);
}

/** A stored time as milliseconds, as the dashboard reads it: null when missing or not a date. */
export function timeMs(time: string | null | undefined): number | null {
  if (!time) return null;
  const t = parseTime(time);
  return Number.isNaN(t) ? null : t;
}

/**
 * Index of the day holding the instant `t` (ms), or -1 when NaN or outside the days: the last day
 * starting at or before `t` (a day skipped whole by a time zone change has no instants).
 */
export function dayIndex(t: number, starts: readonly number[]): number {
  const last = starts.length - 2;
  // NaN fails both comparisons and is rejected here too.
  if (!(t >= starts[0]! && t < starts[last + 1]!)) return -1;
  // Days are about 24 h; correct the estimate for DST days.
  let i = Math.min(last, Math.floor((t - starts[0]!) / 86_400_000));
  while (t < starts[i]!) i--;
  while (t >= starts[i + 1]!) i++;
  return i;
}

/** Index of the day containing `time` (a date string), or -1 when missing, invalid or outside the days. */
function dayOf(time: string | null, starts: readonly number[]): number {
  return time ? dayIndex(parseTime(time), starts) : -1;
}

/** A record's result counts as a rejection unless it is 'passed' (so a missing result is one too). */
export const isRejected = (result: string | null): boolean => result !== 'passed';

/** What a record adds on the day of one of its times: to a trend series and a volume series. */
export interface DayCounters {
  readonly rejected: 0 | 1;
  readonly volume: 0 | 1;
}

/**
 * What one record of the selection adds to the dashboard's counters besides its hub's record
 * count: the counting rule of docs/dashboard.md. This is its one definition: the console's tally,
 * the API's summaries and its record counting apply it, and the API's SQL rebuild of the
 * summaries is tested against it.
 */
export interface RecordCounters {
  /** 1: Verified at Doorstep and its operator's count; 0: Pending. */
  readonly submitted: 0 | 1;
  /** Submitted and rejected: Rejection %, its hub's and its operator's rejections. */
  readonly rejected: 0 | 1;
  /** Its slice of the pie (a submitted record's charted result), or null. */
  readonly slice: string | null;
  /** On its submit day: Rejection at DoorStep and Verified at Doorstep; null: counts on no submit day. */
  readonly submitDay: DayCounters | null;
  /** On its verify day: Rejections at Hub and Verified at Hub; null: counts on no verify day. */
  readonly verifyDay: DayCounters | null;
}

const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);

/** The rule itself (docs/dashboard.md#tiles, #rejection-trend, #daily-processed-volume, #error-distribution). */
function countersOf(isSubmit: boolean, isVerified: boolean, result: string | null): RecordCounters {
  const rejected = isRejected(result);
  return {
    submitted: bit(isSubmit),
    rejected: bit(isSubmit && rejected),
    slice: isSubmit && result !== null && PIE_RESULTS.includes(result) ? result : null,
    // A doorstep rejection is on the trend; a record not yet verified at the hub on the volume.
    submitDay: isSubmit && (rejected || !isVerified) ? { rejected: bit(rejected), volume: bit(!isVerified) } : null,
    // A verified rejection is on the trend, submitted or not; a verified submitted record on the volume.
    verifyDay: isVerified && (rejected || isSubmit) ? { rejected: bit(rejected), volume: bit(isSubmit) } : null,
  };
}

/**
 * countersOf for every (submitted, verified) pair and result, computed once: a result the pie
 * leaves out counts as a missing one (rejected, no slice), so a few results stand for all.
 */
const COUNTERS = [false, true].flatMap((isSubmit) =>
  [false, true].map(
    (isVerified) =>
      new Map([...PIE_RESULTS, null].map((result) => [result, countersOf(isSubmit, isVerified, result)] as const)),
  ),
);

/** What a record with these facts adds to the dashboard's counters (RecordCounters: the counting rule). */
export function recordCounters(isSubmit: boolean, isVerified: boolean, result: string | null): RecordCounters {
  const byResult = COUNTERS[(isSubmit ? 2 : 0) + (isVerified ? 1 : 0)]!;
  return byResult.get(result) ?? byResult.get(null)!;
}

const TOP = 5;

interface Rank {
  count: number;
  total: number;
}

/**
 * Names in one order whatever the viewer's language and whatever order the records came in: by
 * English collation, then (names it holds equal: the same text in two Unicode forms) by code units.
 */
const COLLATOR = new Intl.Collator('en');
export const compareNames = (a: string, b: string): number => COLLATOR.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

function topFive(groups: Map<string, Rank>): RankRow[] {
  return [...groups]
    .sort(([a, x], [b, y]) => y.count - x.count || compareNames(a, b))
    .slice(0, TOP)
    .map(([name, { count, total }]) => ({ name, count, percent: formatPercent(count, total) }));
}

/** The figures being counted over a selection's records, on the days given. */
export class DashboardTally {
  submitted = 0;
  pending = 0;
  /** Submitted rejected records. */
  rejected = 0;
  readonly trend: { doorstep: number[]; hub: number[] };
  readonly volume: { doorstep: number[]; hub: number[] };
  private readonly results = new Map<string, number>(PIE_RESULTS.map((key) => [key, 0]));
  private readonly hubs = new Map<string, Rank>();
  private readonly operators = new Map<string, Rank>();

  constructor(readonly days: DashboardDays) {
    const zeros = () => new Array<number>(days.labels.length).fill(0);
    this.trend = { doorstep: zeros(), hub: zeros() };
    this.volume = { doorstep: zeros(), hub: zeros() };
  }

  /**
   * `count` records of the selection sharing these facts, `submitDay` and `verifyDay` being the
   * day indexes of their submit and verify times (-1: missing or outside the days; each is read
   * only when the record counts on that day).
   */
  add(
    hubCode: string | null,
    isSubmit: boolean,
    isVerified: boolean,
    result: string | null,
    operator: string | null | undefined,
    submitDay: number,
    verifyDay: number,
    count = 1,
  ): void {
    this.count(recordCounters(isSubmit, isVerified, result), hubCode, operator, submitDay, verifyDay, count);
  }

  /** Every record of `records` in the hub `hub` (ALL_HUBS, or a code compared ignoring case), in one pass. */
  addRecords(records: readonly DeviceRecord[], hub: string): void {
    const { starts } = this.days;
    const allHubs = hub === ALL_HUBS;
    const wantedHub = hub.toLowerCase();
    for (const record of records) {
      const info = record.tracking_id;
      if (!allHubs && info.hub_code?.toLowerCase() !== wantedHub) continue;
      if (dayOf(info.created_date, starts) < 0) continue;
      const counters = recordCounters(record.is_submit, record.is_verified, record.device_result);
      // Parsing is most of the time: a time is read only when a figure counts on its day.
      this.count(
        counters,
        info.hub_code,
        record.submitted_by?.username,
        counters.submitDay ? dayOf(record.submit_time, starts) : -1,
        counters.verifyDay ? dayOf(record.verify_time, starts) : -1,
        1,
      );
    }
  }

  /** Adds `count` times what `counters` say, on the days given. */
  private count(
    counters: RecordCounters,
    hubCode: string | null,
    operator: string | null | undefined,
    submitDay: number,
    verifyDay: number,
    count: number,
  ): void {
    const rejected = counters.rejected * count;
    this.addHub(hubCode, count, rejected);
    if (counters.submitted) {
      this.submitted += count;
      this.rejected += rejected;
      this.addOperator(operator, count, rejected);
      if (counters.slice !== null) this.addResult(counters.slice, count);
    } else this.pending += count;
    addOnDay(this.trend.doorstep, this.volume.doorstep, counters.submitDay, submitDay, count);
    addOnDay(this.trend.hub, this.volume.hub, counters.verifyDay, verifyDay, count);
  }

  /** `records` of a hub (as stored; empty or missing reads 'Unknown'), `rejected` of them submitted and rejected. */
  addHub(hubCode: string | null, records: number, rejected: number): void {
    addRank(this.hubs, hubCode || 'Unknown', records, rejected);
  }

  /** `submitted` records of an operator (no username reads 'Unknown'), `rejected` of them rejected. */
  addOperator(username: string | null | undefined, submitted: number, rejected: number): void {
    addRank(this.operators, username || 'Unknown', submitted, rejected);
  }

  /** `count` submitted records with this result; the pie leaves out results it does not chart. */
  addResult(result: string | null, count: number): void {
    const counted = result === null ? undefined : this.results.get(result);
    if (counted !== undefined) this.results.set(result!, counted + count);
  }

  finish(): DashboardStats {
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const { trend, volume, results } = this;
    return {
      verified: this.submitted,
      pending: this.pending,
      rejection: formatPercent(this.rejected, this.submitted),
      days: [...this.days.labels],
      trend: { doorstep: [...trend.doorstep], hub: [...trend.hub], total: sum(trend.doorstep) + sum(trend.hub) },
      volume: { doorstep: [...volume.doorstep], hub: [...volume.hub], total: sum(volume.doorstep) + sum(volume.hub) },
      errors: PIE_COLORS.filter(([key]) => results.get(key)! > 0).map(([key, color]) => ({
        key,
        label: key === 'passed' ? 'Passed' : key,
        tooltip: key === 'passed' ? 'Passed' : `${key}: ${deviceError(key)!.title}`,
        color,
        count: results.get(key)!,
      })),
      topHubs: topFive(this.hubs),
      topOperators: topFive(this.operators),
    };
  }
}

/** `count` times `counters` on the day `day` of a trend and a volume series (none: -1 or no counters). */
function addOnDay(trend: number[], volume: number[], counters: DayCounters | null, day: number, count: number): void {
  if (counters === null || day < 0) return;
  trend[day]! += counters.rejected * count;
  volume[day]! += counters.volume * count;
}

function addRank(groups: Map<string, Rank>, name: string, total: number, count: number): void {
  const rank = groups.get(name);
  if (rank) {
    rank.total += total;
    rank.count += count;
  } else groups.set(name, { count, total });
}

/** Every figure of the dashboard for `selection`, in one pass over `records`, on the local days of this runtime. */
export function dashboardStats(
  records: readonly DeviceRecord[],
  { hub, timeframe }: Selection,
  now: Date = new Date(),
): DashboardStats {
  const tally = new DashboardTally(localDays(timeframeDays(timeframe), now));
  tally.addRecords(records, hub);
  return tally.finish();
}
