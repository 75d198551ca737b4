// The dashboard's figures (docs/dashboard.md): tiles, daily series, error distribution and the
// top-five tables, computed in one pass over the records. Pure: no React, no chart.js.
import { deviceError } from './errors';
import { ALL_HUBS } from './roles';
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

export interface Selection {
  /** ALL_HUBS or a hub code (compared ignoring case). */
  hub: string;
  timeframe: Timeframe;
}

/** One slice of the Error Distribution pie. */
export interface ErrorSlice {
  /** 'passed' or an error code. */
  key: string;
  /** Legend text: 'Passed' or the code. */
  label: string;
  /** docs/dashboard.md#error-distribution: 'Passed', or 'E00x: title'. */
  tooltip: string;
  color: string;
  count: number;
}

/** docs/dashboard.md#error-distribution: passed green, one distinct colour per code E003–E010, in slice order. */
const PIE_COLORS: readonly [key: string, color: string][] = [
  ['passed', '#1e8e3e'],
  ['E003', '#d93025'],
  ['E004', '#f29900'],
  ['E005', '#8e24aa'],
  ['E006', '#1a73e8'],
  ['E007', '#e8710a'],
  ['E008', '#00897b'],
  ['E009', '#c2185b'],
  ['E010', '#5d4037'],
];

/** The pie's only slice when nothing was submitted. */
export const NO_INPUTS_SLICE: ErrorSlice = { key: 'none', label: 'No Inputs', tooltip: 'No Inputs', color: '#bdc1c6', count: 1 };

/** Counts per day of the timeframe, oldest first, for a chart's two series. */
export interface DailySeries {
  doorstep: number[];
  hub: number[];
  /** Sum of both series: 0 means the chart shows 'No data available'. */
  total: number;
}

export interface RankRow {
  name: string;
  count: number;
  /** '12.34%' */
  percent: string;
}

export interface DashboardStats {
  /** Submitted records (Verified at Doorstep). */
  verified: number;
  /** Records not submitted. */
  pending: number;
  /** '12.34%': rejections among submitted / submitted. */
  rejection: string;
  /** 'MM/DD' per day of the timeframe, oldest first. */
  days: string[];
  /** Rejection Trend: doorstep rejections by submit day, hub rejections by verify day. */
  trend: DailySeries;
  /** Daily Processed Volume: submitted-only by submit day (doorstep), verified by verify day (hub). */
  volume: DailySeries;
  /** Non-empty slices in the order passed, E003 … E010; empty when nothing counted. */
  errors: ErrorSlice[];
  topHubs: RankRow[];
  topOperators: RankRow[];
}

/** part / whole × 100 with two decimals and '%'; '0.00%' when whole is 0. */
export function formatPercent(part: number, whole: number): string {
  return `${(whole ? (part / whole) * 100 : 0).toFixed(2)}%`;
}

const TOP = 5;

interface Rank {
  count: number;
  total: number;
}

function topFive(groups: Map<string, Rank>): RankRow[] {
  return [...groups]
    .sort(([a, x], [b, y]) => y.count - x.count || a.localeCompare(b))
    .slice(0, TOP)
    .map(([name, { count, total }]) => ({ name, count, percent: formatPercent(count, total) }));
}

function bump(groups: Map<string, Rank>, name: string, rejected: boolean): void {
  let rank = groups.get(name);
  if (!rank) groups.set(name, (rank = { count: 0, total: 0 }));
  rank.total++;
  if (rejected) rank.count++;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Local midnights of the timeframe's days plus the midnight after the last one (N + 1 entries).
 * Built from calendar fields, so a day of 23 or 25 hours (DST) is still one day.
 */
function dayStarts(days: number, now: Date): number[] {
  const starts: number[] = [];
  for (let i = days - 1; i >= -1; i--) starts.push(new Date(now.getFullYear(), now.getMonth(), now.getDate() - i).getTime());
  return starts;
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
    if (year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59) {
      return Date.UTC(year, month - 1, day, hour, minute, second, digits(text, 20, 23));
    }
  }
  return Date.parse(text);
}

/** Index of the day containing `time` (a date string), or -1 when missing, invalid or outside the days. */
function dayIndex(time: string | null, starts: number[]): number {
  if (!time) return -1;
  const t = parseTime(time);
  const last = starts.length - 2;
  // NaN fails both comparisons and is rejected here too.
  if (!(t >= starts[0]! && t < starts[last + 1]!)) return -1;
  // Days are about 24 h; correct the estimate for DST days.
  let i = Math.min(last, Math.floor((t - starts[0]!) / 86_400_000));
  while (t < starts[i]!) i--;
  while (t >= starts[i + 1]!) i++;
  return i;
}

/** Every figure of the dashboard for `selection`, in one pass over `records`. */
export function dashboardStats(records: readonly DeviceRecord[], { hub, timeframe }: Selection, now: Date = new Date()): DashboardStats {
  const days = TIMEFRAMES.find((t) => t.value === timeframe)!.days;
  const starts = dayStarts(days, now);
  const allHubs = hub === ALL_HUBS;
  const wantedHub = hub.toLowerCase();

  const zeros = () => new Array<number>(days).fill(0);
  const trend = { doorstep: zeros(), hub: zeros(), total: 0 };
  const volume = { doorstep: zeros(), hub: zeros(), total: 0 };
  const results = new Map<string, number>(PIE_COLORS.map(([key]) => [key, 0]));
  const hubs = new Map<string, Rank>();
  const operators = new Map<string, Rank>();
  let submitted = 0;
  let pending = 0;
  let rejectedAtDoorstep = 0;

  for (const record of records) {
    const info = record.tracking_id;
    if (!allHubs && info.hub_code?.toLowerCase() !== wantedHub) continue;
    if (dayIndex(info.created_date, starts) < 0) continue;

    const rejected = record.device_result !== 'passed';
    bump(hubs, info.hub_code || 'Unknown', record.is_submit && rejected);
    const verifyDay = record.is_verified ? dayIndex(record.verify_time, starts) : -1;
    if (rejected && verifyDay >= 0) trend.hub[verifyDay]!++;
    if (!record.is_submit) {
      pending++;
      continue;
    }

    submitted++;
    bump(operators, record.submitted_by?.username || 'Unknown', rejected);
    const result = record.device_result;
    if (result !== null && results.has(result)) results.set(result, results.get(result)! + 1);
    if (rejected) rejectedAtDoorstep++;
    // Volume: a verified record counts on its verify day, a submitted-only one on its submit day.
    if (record.is_verified && verifyDay >= 0) volume.hub[verifyDay]!++;
    // The submit day matters only for a doorstep rejection or a submitted-only record.
    if (rejected || !record.is_verified) {
      const submitDay = dayIndex(record.submit_time, starts);
      if (submitDay >= 0) {
        if (rejected) trend.doorstep[submitDay]!++;
        if (!record.is_verified) volume.doorstep[submitDay]!++;
      }
    }
  }

  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  trend.total = sum(trend.doorstep) + sum(trend.hub);
  volume.total = sum(volume.doorstep) + sum(volume.hub);

  return {
    verified: submitted,
    pending,
    rejection: formatPercent(rejectedAtDoorstep, submitted),
    days: starts.slice(0, days).map((start) => {
      const day = new Date(start);
      return `${pad(day.getMonth() + 1)}/${pad(day.getDate())}`;
    }),
    trend,
    volume,
    errors: PIE_COLORS.filter(([key]) => results.get(key)! > 0).map(([key, color]) => ({
      key,
      label: key === 'passed' ? 'Passed' : key,
      tooltip: key === 'passed' ? 'Passed' : `${key}: ${deviceError(key)!.title}`,
      color,
      count: results.get(key)!,
    })),
    topHubs: topFive(hubs),
    topOperators: topFive(operators),
  };
}
