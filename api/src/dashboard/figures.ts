// Every figure of the dashboard for a hub, a timeframe and the viewer's time zone, as
// dashboardStats() computes them in a browser of that zone over every record
// (docs/dashboard.md#server-side-figures). The days are the zone's (zoneDays); the records of the
// selection are counted from the summaries (dashboard-summaries.ts) and, for the parts of the timeframe that
// are no whole UTC hour, from device_records itself; both fill one DashboardTally of
// @veritas/shared, which finishes the figures as the console does.
//
// Why this split (its figures: api/README.md, "Dashboard figures"): reading the records costs too
// much at millions of records, even one day of them, and a timeframe's ends are not UTC midnights
// (Asia/Kolkata's days start at 18:30 UTC), so summaries by UTC day alone would leave up to a day
// of records to read. But the zone's midnights
// have been whole quarter hours in every zone since October 1979 (Africa/Monrovia until 1972 and
// Pacific/Kiritimati until 1979 had offsets such as -0:44:30 and -10:40). So every time a figure is
// counted on (a submit or verify time) is summarised by its quarter hour, and the created time,
// which only decides whether a record is in the timeframe, by its UTC day inside the timeframe and
// by its UTC hour at both ends. What is left, at most 45 minutes at each end (zones of :30 and :45
// offsets, e.g. Asia/Kolkata, Asia/Kathmandu), is read from the records. Were any day start not a
// whole quarter hour, the whole timeframe would be read from the records.
import {
  ALL_HUBS,
  DashboardTally,
  PIE_RESULTS,
  timeframeDays,
  zoneDays,
  type DashboardDays,
  type DashboardStats,
  type Timeframe,
} from '@veritas/shared/domain';
import { expressionBuilder, type Expression, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import { HOUR_MS, PIE_COLUMNS, QUARTER_MS } from './dashboard-summaries';

export interface FiguresRequest {
  /** ALL_HUBS or a hub code (compared ignoring case). */
  hub: string;
  timeframe: Timeframe;
  /** The viewer's IANA time zone (isTimeZone). */
  timeZone: string;
  now: Date;
}

/** Created buckets of a span: [from, to) in hour numbers. */
interface BucketRange {
  span: 1 | 24;
  from: number;
  to: number;
}

/** Where the records of a timeframe [start, end) are counted from. */
export interface WindowPlan {
  buckets: BucketRange[];
  /** [from, to) ms ranges of created times read from device_records. */
  rest: [number, number][];
}

/** The timeframe from its day starts: whole UTC days, then whole UTC hours, then the rest. */
export function planWindow(starts: readonly number[]): WindowPlan {
  const start = starts[0]!;
  const end = starts[starts.length - 1]!;
  if (!starts.every((t) => t % QUARTER_MS === 0)) return { buckets: [], rest: [[start, end]] };
  const firstHour = Math.ceil(start / HOUR_MS);
  const endHour = Math.floor(end / HOUR_MS);
  if (firstHour >= endHour) return { buckets: [], rest: [[start, end]] };
  const firstDay = Math.ceil(firstHour / 24) * 24;
  const endDay = Math.floor(endHour / 24) * 24;
  const buckets: BucketRange[] =
    firstDay < endDay
      ? [
          { span: 24, from: firstDay, to: endDay },
          { span: 1, from: firstHour, to: firstDay },
          { span: 1, from: endDay, to: endHour },
        ]
      : [{ span: 1, from: firstHour, to: endHour }];
  const rest: [number, number][] = [
    [start, firstHour * HOUR_MS],
    [endHour * HOUR_MS, end],
  ];
  return { buckets: buckets.filter((b) => b.from < b.to), rest: rest.filter(([from, to]) => from < to) };
}

/** Rows whose created bucket (`span`, `bucket`) is in one of `buckets`. */
function inBuckets<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  span: Expression<number>,
  bucket: Expression<number | string>,
  buckets: BucketRange[],
) {
  return eb.or(
    buckets.map(({ span: s, from, to }) =>
      eb.and([eb(span, '=', eb.lit(s)), eb(bucket, '>=', eb.lit(from)), eb(bucket, '<', eb.lit(to))]),
    ),
  );
}

/**
 * The day index of a column in SQL, as dayIndex() gives it (-1: null or outside the days), for
 * `starts` in the column's unit (ms, or quarter hours).
 */
function dayIndexSql<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  t: Expression<number | string | null>,
  starts: readonly number[],
) {
  const last = starts.length - 1;
  let day = eb
    .case()
    .when(eb.or([eb(t, 'is', null), eb(t, '<', eb.lit(starts[0]!)), eb(t, '>=', eb.lit(starts[last]!))]))
    .then(-1);
  starts.slice(1, last).forEach((next, i) => (day = day.when(t, '<', eb.lit(next)).then(i)));
  return day.else(last - 1).end();
}

/** A sum as read: PostgreSQL answers bigint sums as text. */
type Sum = number | string;
const n = (value: Sum | null | undefined) => Number(value ?? 0);

/** What the figures do differently on each engine (figures.postgres.ts, figures.sqlite.ts). */
export interface FiguresEngine {
  /** How many calls count at once (turns.ts). */
  callsAtOnce: number;
  /** Runs the reads in one snapshot, so a write committing meanwhile is counted everywhere or nowhere. */
  inSnapshot(db: Db, read: (kysely: Kysely<Database>) => Promise<void>): Promise<void>;
}

/** What a request counts: a hub over the days of its timeframe in its zone, as of its now. */
export interface FiguresSelection {
  hub: string;
  days: DashboardDays;
  /** Equal for two selections whose figures are equal in one snapshot. */
  key: string;
}

export function selectionOf({ hub, timeframe, timeZone, now }: FiguresRequest): FiguresSelection {
  const days = zoneDays(timeframeDays(timeframe), now, timeZone);
  // The first day's start stands for the viewer's today: the zone and timeframe place the rest.
  return { hub, days, key: JSON.stringify([hub, timeframe, timeZone, days.starts[0]]) };
}

/** Every figure of the dashboard for the selection, in one snapshot taken now. */
export async function dashboardFigures(
  db: Db,
  engine: FiguresEngine,
  { hub, days }: FiguresSelection,
): Promise<DashboardStats> {
  const tally = new DashboardTally(days);
  await engine.inSnapshot(db, (kysely) => countInto(tally, kysely, hub));
  return tally.finish();
}

/** Hub codes to count: null for every hub. */
type HubCodes = string[] | null;

async function countInto(tally: DashboardTally, kysely: Kysely<Database>, hub: string): Promise<void> {
  const plan = planWindow(tally.days.starts);
  let codes: HubCodes = null;
  if (hub !== ALL_HUBS) {
    // Every spelling of the hub code that records hold: keys are lower-cased as JavaScript does.
    const spellings = await kysely
      .selectFrom('dashboard_hubs')
      .select('hub_code')
      .where('hub_key', '=', hub.toLowerCase())
      .execute();
    if (spellings.length === 0) return;
    codes = spellings.map((row) => row.hub_code);
  }
  if (plan.buckets.length > 0) {
    await countCounts(tally, kysely, plan.buckets, codes);
    await countOperators(tally, kysely, plan.buckets, codes);
    await countSeries(tally, kysely, plan.buckets, codes);
  }
  if (plan.rest.length > 0) await countRecords(tally, kysely, plan.rest, codes);
}

/** Tiles, pie and top hubs from dashboard_counts. */
async function countCounts(tally: DashboardTally, kysely: Kysely<Database>, buckets: BucketRange[], codes: HubCodes) {
  const rows = await kysely
    .selectFrom('dashboard_counts')
    .select((eb) => [
      'hub_code',
      eb.fn.sum<Sum>('records').as('records'),
      eb.fn.sum<Sum>('submitted').as('submitted'),
      eb.fn.sum<Sum>('rejected').as('rejected'),
      ...PIE_COLUMNS.map((column) => eb.fn.sum<Sum>(column).as(column)),
    ])
    .where((eb) => inBuckets(eb, eb.ref('span'), eb.ref('bucket'), buckets))
    .$if(codes !== null, (query) => query.where('hub_code', 'in', codes!))
    .groupBy('hub_code')
    .execute();
  for (const row of rows) {
    const submitted = n(row.submitted);
    tally.submitted += submitted;
    tally.pending += n(row.records) - submitted;
    tally.rejected += n(row.rejected);
    tally.addHub(row.hub_code, n(row.records), n(row.rejected));
    PIE_COLUMNS.forEach((column, i) => tally.addResult(PIE_RESULTS[i]!, n(row[column])));
  }
}

/** Top operators from dashboard_operators, by the usernames of today. */
async function countOperators(
  tally: DashboardTally,
  kysely: Kysely<Database>,
  buckets: BucketRange[],
  codes: HubCodes,
) {
  const rows = await kysely
    .selectFrom('dashboard_operators as o')
    .leftJoin('users as u', 'u.id', 'o.operator_id')
    .select((eb) => [
      'u.username',
      eb.fn.sum<Sum>('o.submitted').as('submitted'),
      eb.fn.sum<Sum>('o.rejected').as('rejected'),
    ])
    .where((eb) => inBuckets(eb, eb.ref('o.span'), eb.ref('o.bucket'), buckets))
    .$if(codes !== null, (query) => query.where('o.hub_code', 'in', codes!))
    .groupBy(['o.operator_id', 'u.username'])
    .execute();
  for (const row of rows) tally.addOperator(row.username, n(row.submitted), n(row.rejected));
}

/**
 * The daily series from dashboard_series: each quarter hour lies in one day (days start on
 * quarter hours), so they are summed by day in SQL.
 */
async function countSeries(tally: DashboardTally, kysely: Kysely<Database>, buckets: BucketRange[], codes: HubCodes) {
  const quarters = tally.days.starts.map((start) => start / QUARTER_MS);
  const eb = expressionBuilder<Database, 'dashboard_series'>();
  const day = dayIndexSql(eb, eb.ref('quarter'), quarters);
  const rows = await kysely
    .selectFrom('dashboard_series')
    .select((eb) => [
      'event',
      day.as('day'),
      eb.fn.sum<Sum>('rejected').as('rejected'),
      eb.fn.sum<Sum>('volume').as('volume'),
    ])
    .where((eb) =>
      codes === null
        ? eb.and([eb('all_hubs', '=', eb.lit(1)), eb('hub_code', '=', '')])
        : eb.and([eb('all_hubs', '=', eb.lit(0)), eb('hub_code', 'in', codes)]),
    )
    .where((eb) => inBuckets(eb, eb.ref('span'), eb.ref('bucket'), buckets))
    .where((eb) => eb('quarter', '>=', eb.lit(quarters[0]!)))
    .where((eb) => eb('quarter', '<', eb.lit(quarters[quarters.length - 1]!)))
    .groupBy(['event', day])
    .execute();
  for (const row of rows) {
    const index = n(row.day);
    const [trend, volume] =
      row.event === 0 ? [tally.trend.doorstep, tally.volume.doorstep] : [tally.trend.hub, tally.volume.hub];
    trend[index]! += n(row.rejected);
    volume[index]! += n(row.volume);
  }
}

/** The records themselves, created in the `ranges` of ms, grouped by what the counting rule reads of them. */
async function countRecords(
  tally: DashboardTally,
  kysely: Kysely<Database>,
  ranges: [number, number][],
  codes: HubCodes,
) {
  const { starts } = tally.days;
  const eb = expressionBuilder<Database, 'device_records'>();
  const submitDay = dayIndexSql(eb, eb.ref('device_records.submit_ms'), starts);
  const verifyDay = dayIndexSql(eb, eb.ref('device_records.verify_ms'), starts);
  /** What the counting rule reads of a record, besides its days. */
  const facts = [
    'device_records.hub_code',
    'device_records.is_submit',
    'device_records.is_verified',
    'device_records.device_result',
    'u.username',
  ] as const;
  const rows = await kysely
    .selectFrom('device_records')
    .leftJoin('users as u', 'u.id', 'device_records.submitted_by_id')
    .select((eb) => [
      ...facts,
      submitDay.as('submit_day'),
      verifyDay.as('verify_day'),
      eb.fn.countAll<Sum>().as('records'),
    ])
    .where((eb) =>
      eb.or(
        ranges.map(([from, to]) =>
          eb.and([
            eb('device_records.created_ms', '>=', eb.lit(from)),
            eb('device_records.created_ms', '<', eb.lit(to)),
          ]),
        ),
      ),
    )
    .$if(codes !== null, (query) => query.where('device_records.hub_code', 'in', codes!))
    .groupBy([...facts, submitDay, verifyDay])
    .execute();
  for (const row of rows) {
    tally.add(
      row.hub_code,
      row.is_submit === 1,
      row.is_verified === 1,
      row.device_result,
      row.username,
      n(row.submit_day),
      n(row.verify_day),
      n(row.records),
    );
  }
}
