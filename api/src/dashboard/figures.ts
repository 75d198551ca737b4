// Every figure of the dashboard for a hub, a timeframe and the viewer's time zone, as
// dashboardStats() computes them in a browser of that zone over every record
// (docs/dashboard.md#server-side-figures). The days are the zone's (zoneDays); the records of the
// selection are counted from the summaries (summaries.ts) and, for the parts of the timeframe that
// are no whole UTC hour, from device_records itself; both fill one DashboardTally of
// @veritas/shared, which finishes the figures as the console does.
//
// Why this split (measured in api/README.md, "Dashboard figures"): reading the records costs too
// much at millions of records (even one day of them, at the benchmark's density), and a timeframe's ends are not UTC midnights (Asia/Kolkata's days start at 18:30 UTC), so
// summaries by UTC day alone would leave up to a day of records to read. But the zone's midnights
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
  type DashboardStats,
  type Timeframe,
} from '@veritas/shared/domain';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, Db } from '../db/schema';
import { HOUR_MS, PIE_COLUMNS, QUARTER_MS } from './summaries';

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

const or = (conditions: RawBuilder<unknown>[]) => sql`(${sql.join(conditions, sql` or `)})`;

const inBuckets = (buckets: BucketRange[]) =>
  or(
    buckets.map(
      ({ span, from, to }) => sql`(span = ${sql.lit(span)} and bucket >= ${sql.lit(from)} and bucket < ${sql.lit(to)})`,
    ),
  );

/**
 * The day index of a column in SQL, as dayIndex() gives it (-1: null or outside the days), for
 * `starts` in the column's unit (ms, or quarter hours).
 */
function dayIndexSql(column: string, starts: readonly number[]): RawBuilder<number> {
  const t = sql.ref(column);
  const last = starts.length - 1;
  const whens = starts.slice(1, last).map((next, i) => sql`when ${t} < ${sql.lit(next)} then ${sql.lit(i)}`);
  return sql<number>`case when ${t} is null or ${t} < ${sql.lit(starts[0]!)} or ${t} >= ${sql.lit(starts[last]!)} then -1 ${sql.join(whens, sql` `)} else ${sql.lit(last - 1)} end`;
}

const n = (value: number | string | null | undefined) => Number(value ?? 0);

/** What the figures do differently on each engine (figures.postgres.ts, figures.sqlite.ts). */
export interface FiguresEngine {
  /** How many calls count at once (turns.ts). */
  callsAtOnce: number;
  /** Runs the reads in one snapshot, so a write committing meanwhile is counted everywhere or nowhere. */
  inSnapshot(db: Db, read: (kysely: Kysely<Database>) => Promise<void>): Promise<void>;
}

/** Every figure of the dashboard for the request. */
export async function dashboardFigures(
  db: Db,
  engine: FiguresEngine,
  { hub, timeframe, timeZone, now }: FiguresRequest,
): Promise<DashboardStats> {
  const days = zoneDays(timeframeDays(timeframe), now, timeZone);
  const tally = new DashboardTally(days);
  await engine.inSnapshot(db, (kysely) => countInto(tally, kysely, hub));
  return tally.finish();
}

async function countInto(tally: DashboardTally, kysely: Kysely<Database>, hub: string): Promise<void> {
  const { starts } = tally.days;
  const plan = planWindow(starts);
  /** The records' hub condition on a column: every hub, or the spellings of the chosen one. */
  let inHub = (_column: string): RawBuilder<unknown> => sql`true`;
  let seriesHubs = sql`all_hubs = 1 and hub_code = ''`;
  if (hub !== ALL_HUBS) {
    // Every spelling of the hub code that records hold: keys are lower-cased as JavaScript does.
    const spellings = await kysely
      .selectFrom('dashboard_hubs')
      .select('hub_code')
      .where('hub_key', '=', hub.toLowerCase())
      .execute();
    if (spellings.length === 0) return;
    const codes = sql.join(spellings.map((row) => sql`${row.hub_code}`));
    inHub = (column) => sql`${sql.ref(column)} in (${codes})`;
    seriesHubs = sql`all_hubs = 0 and hub_code in (${codes})`;
  }

  if (plan.buckets.length > 0) {
    const buckets = inBuckets(plan.buckets);
    const counts = await sql<Record<string, number | string | null>>`
      select hub_code, sum(records) as records, sum(submitted) as submitted, sum(rejected) as rejected,
        ${sql.join(PIE_COLUMNS.map((c) => sql`sum(${sql.ref(c)}) as ${sql.ref(c)}`))}
      from dashboard_counts where ${buckets} and ${inHub('hub_code')}
      group by hub_code`.execute(kysely);
    for (const row of counts.rows) {
      const submitted = n(row.submitted);
      tally.submitted += submitted;
      tally.pending += n(row.records) - submitted;
      tally.rejected += n(row.rejected);
      tally.addHub(row.hub_code as string, n(row.records), n(row.rejected));
      PIE_COLUMNS.forEach((column, i) => tally.addResult(PIE_RESULTS[i]!, n(row[column]!)));
    }

    const operators = await sql<{ username: string | null; submitted: string | number; rejected: string | number }>`
      select u.username, sum(o.submitted) as submitted, sum(o.rejected) as rejected
      from dashboard_operators o left join users u on u.id = o.operator_id
      where ${buckets} and ${inHub('o.hub_code')}
      group by o.operator_id, u.username`.execute(kysely);
    for (const row of operators.rows) tally.addOperator(row.username, n(row.submitted), n(row.rejected));

    // Each quarter hour lies in one day (days start on quarter hours): summed by day in SQL.
    const quarters = starts.map((start) => start / QUARTER_MS);
    const series = await sql<{
      event: number;
      day: string | number;
      rejected: string | number;
      volume: string | number;
    }>`
      select event, ${dayIndexSql('quarter', quarters)} as day, sum(rejected) as rejected, sum(volume) as volume
      from dashboard_series
      where ${seriesHubs} and ${buckets} and quarter >= ${sql.lit(quarters[0]!)} and quarter < ${sql.lit(quarters[quarters.length - 1]!)}
      group by 1, 2`.execute(kysely);
    for (const row of series.rows) {
      const day = n(row.day);
      const [trend, volume] =
        row.event === 0 ? [tally.trend.doorstep, tally.volume.doorstep] : [tally.trend.hub, tally.volume.hub];
      trend[day]! += n(row.rejected);
      volume[day]! += n(row.volume);
    }
  }

  if (plan.rest.length > 0) {
    // The records themselves, counted by what the rule reads of them.
    const created = or(
      plan.rest.map(([from, to]) => sql`(d.created_ms >= ${sql.lit(from)} and d.created_ms < ${sql.lit(to)})`),
    );
    const rest = await sql<{
      hub_code: string | null;
      is_submit: number;
      is_verified: number;
      device_result: string | null;
      username: string | null;
      submit_day: number | string;
      verify_day: number | string;
      records: number | string;
    }>`
      select d.hub_code, d.is_submit, d.is_verified, d.device_result, u.username,
        ${dayIndexSql('d.submit_ms', starts)} as submit_day, ${dayIndexSql('d.verify_ms', starts)} as verify_day, count(*) as records
      from device_records d left join users u on u.id = d.submitted_by_id
      where ${created} and ${inHub('d.hub_code')}
      group by 1, 2, 3, 4, 5, 6, 7`.execute(kysely);
    for (const row of rest.rows) {
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
}
