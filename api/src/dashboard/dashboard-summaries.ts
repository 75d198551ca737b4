// The dashboard's summaries (docs/dashboard.md#server-side-figures): what api/dashboard/ reads
// instead of every record. Each record is counted by the UTC hour and the UTC day of its created
// time and its hub code, as stored:
//   - dashboard_counts: records, submitted, submitted rejected, and the pie's results (tiles, pie, top hubs);
//   - dashboard_operators: submitted and rejected by operator id (top operators; usernames are read with the figures);
//   - dashboard_series: the daily series, by the quarter hour of the time each record counts on;
//   - dashboard_hubs: every hub code and its key, lower-cased as JavaScript does (SQLite's lower() knows ASCII only).
// They are kept in step by the code that writes device_records, in the same transaction: a record's
// contribution before the write is taken away and its contribution after it added (DashboardChanges,
// through RecordChanges of src/writes/record-changes.ts). A bulk loader that writes rows without
// them calls rebuildDashboardSummaries at its end.
import { PIE_RESULTS, recordCounters, type DayCounters, type RecordCounters } from '@veritas/shared/domain';
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { Database, Db, Flag } from '../db/schema';
import { additiveTable, type SummaryRows, type SummaryTable } from '../writes/summary-tables';

export const HOUR_MS = 3_600_000;
export const QUARTER_MS = 900_000;
/** The spans of a created bucket: an hour, or a day of 24 hours. */
export const SPANS = [1, 24] as const;

/** What the dashboard reads of a record: the columns its figures depend on. */
export interface DashboardFacts {
  hub_code: string | null;
  created_ms: number | null;
  is_submit: Flag;
  is_verified: Flag;
  device_result: string | null;
  submitted_by_id: number | null;
  submit_ms: number | null;
  verify_ms: number | null;
}

/** Floor division, right for times before 1970 too. */
export const floorDiv = (value: number, divisor: number) => Math.floor(value / divisor);

/** The key of a hub code: lower-cased as the console compares it ('' for none). */
export const hubKey = (hubCode: string | null) => (hubCode ?? '').toLowerCase();

/** The pie's results as dashboard_counts columns ('passed', 'e003' …). */
export const PIE_COLUMNS = PIE_RESULTS.map((result) => result.toLowerCase()) as readonly PieColumn[];
type PieColumn = 'passed' | 'e003' | 'e004' | 'e005' | 'e006' | 'e007' | 'e008' | 'e009' | 'e010';
const PIE_COLUMN_OF = new Map(PIE_RESULTS.map((result, i) => [result, PIE_COLUMNS[i]!]));

type CountRow = {
  span: number;
  bucket: number;
  hub_code: string;
  records: number;
  submitted: number;
  rejected: number;
} & Record<PieColumn, number>;
type OperatorRow = {
  span: number;
  bucket: number;
  hub_code: string;
  operator_id: number;
  submitted: number;
  rejected: number;
};
type SeriesRow = {
  all_hubs: Flag;
  hub_code: string;
  span: number;
  bucket: number;
  event: number;
  quarter: number;
  rejected: number;
  volume: number;
};

const COUNTS = additiveTable(
  'dashboard_counts',
  [
    ['span', 'integer'],
    ['bucket', 'bigint'],
    ['hub_code', 'text'],
  ],
  ['records', 'submitted', 'rejected', ...PIE_COLUMNS],
);
const OPERATORS = additiveTable(
  'dashboard_operators',
  [
    ['span', 'integer'],
    ['bucket', 'bigint'],
    ['hub_code', 'text'],
    ['operator_id', 'integer'],
  ],
  ['submitted', 'rejected'],
);
const SERIES = additiveTable(
  'dashboard_series',
  [
    ['all_hubs', 'integer'],
    ['hub_code', 'text'],
    ['span', 'integer'],
    ['bucket', 'bigint'],
    ['event', 'integer'],
    ['quarter', 'bigint'],
  ],
  ['rejected', 'volume'],
);
/** Every hub code and its key: a code already known is kept. */
const HUBS: SummaryTable = {
  name: 'dashboard_hubs',
  columns: [
    ['hub_code', 'text'],
    ['hub_key', 'text'],
  ],
  onConflict: 'on conflict (hub_code) do nothing',
};
/** The columns each table adds up. */
const COUNT_VALUES = ['records', 'submitted', 'rejected', ...PIE_COLUMNS] as const;
const OPERATOR_VALUES = ['submitted', 'rejected'] as const;
const SERIES_VALUES = ['rejected', 'volume'] as const;
/**
 * `query` ordered by each column of `key` (its output columns of those names), the order a rebuild
 * writes a table's rows in: a selection's range of the key then lies on a few pages rather than one
 * page per row. The figures of 30 days at 10M records read some 18,000 series rows: written in the
 * order the grouping produced them, that was as many pages, and a connection's first touch of each
 * page of PostgreSQL's shared memory is a page fault (api/README.md, "Dashboard figures").
 */
function inKeyOrder<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  key: readonly (keyof O & string)[],
): SelectQueryBuilder<DB, TB, O> {
  return key.reduce((ordered, column) => ordered.orderBy(column), query);
}

/** Rows by key: created with zeros when first touched; the key text names the row and orders it. */
class Rows<R extends object> {
  private readonly rows = new Map<string, R>();

  constructor(private readonly values: readonly string[]) {}

  at(key: string, make: () => R): R {
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = make()));
    return row;
  }

  /** The rows that change something, in key order: concurrent transactions lock summary rows in one order. */
  changed(): R[] {
    return [...this.rows.keys()]
      .sort()
      .map((key) => this.rows.get(key)!)
      .filter((row) => this.values.some((column) => (row as Record<string, number>)[column] !== 0));
  }
}

// prettier-ignore
const newCountRow = (span: number, bucket: number, hub_code: string): CountRow => ({
  span, bucket, hub_code, records: 0, submitted: 0, rejected: 0,
  passed: 0, e003: 0, e004: 0, e005: 0, e006: 0, e007: 0, e008: 0, e009: 0, e010: 0,
});

/** The dashboard's summary changes of one write (a batch of records, or one record's step). */
export class DashboardChanges {
  private readonly counts = new Rows<CountRow>(COUNT_VALUES);
  private readonly operators = new Rows<OperatorRow>(OPERATOR_VALUES);
  private readonly series = new Rows<SeriesRow>(SERIES_VALUES);
  private readonly hubs = new Set<string>();

  /** `count` new records with these facts. */
  insert(facts: DashboardFacts, count = 1): this {
    this.hubs.add(facts.hub_code ?? '');
    return this.add(facts, count);
  }

  /**
   * New records, counted a group at a time: records alike in all that add() reads (hub, created
   * hour, flags, result, operator, event quarter hours) add the same, so each group is added once
   * with its size. An upload batch of a thousand pending records makes a few dozen groups.
   */
  insertAll(records: readonly DashboardFacts[]): this {
    const groups = new Map<string, { facts: DashboardFacts; count: number }>();
    const quarter = (ms: number | null) => (ms === null ? '' : floorDiv(ms, QUARTER_MS));
    for (const facts of records) {
      const hour = facts.created_ms === null ? '' : floorDiv(facts.created_ms, HOUR_MS);
      const key = `${hour} ${quarter(facts.submit_ms)} ${quarter(facts.verify_ms)} ${facts.is_submit}${facts.is_verified} ${facts.submitted_by_id} ${facts.device_result} ${facts.hub_code}`;
      const group = groups.get(key);
      if (group) group.count++;
      else groups.set(key, { facts, count: 1 });
    }
    for (const { facts, count } of groups.values()) this.insert(facts, count);
    return this;
  }

  /** A record changing from `before` to `after`. */
  change(before: DashboardFacts, after: DashboardFacts): this {
    return this.add(before, -1).add(after, 1);
  }

  /**
   * Adds what `count` records with these facts count (negative: takes it away): recordCounters of
   * @veritas/shared, the dashboard's counting rule, by created bucket and event quarter hour.
   */
  add(facts: DashboardFacts, count: number): this {
    // A record without a readable created date never counts.
    if (facts.created_ms === null) return this;
    const counters = recordCounters(facts.is_submit === 1, facts.is_verified === 1, facts.device_result);
    const hub = facts.hub_code ?? '';
    const events = [
      [0, counters.submitDay, facts.submit_ms],
      [1, counters.verifyDay, facts.verify_ms],
    ] as const;
    const hour = floorDiv(facts.created_ms, HOUR_MS);
    for (const span of SPANS) {
      const bucket = floorDiv(hour, span) * span;
      this.addCounts(span, bucket, hub, facts.submitted_by_id ?? 0, counters, count);
      for (const [event, day, ms] of events) {
        if (day !== null && ms !== null) this.addSeries(span, bucket, hub, event, floorDiv(ms, QUARTER_MS), day, count);
      }
    }
    return this;
  }

  private addCounts(
    span: number,
    bucket: number,
    hub: string,
    operatorId: number,
    counters: RecordCounters,
    count: number,
  ): void {
    // Keys end with the hub code, the only text in them.
    const counts = this.counts.at(`${span} ${bucket} ${hub}`, () => newCountRow(span, bucket, hub));
    counts.records += count;
    if (!counters.submitted) return;
    counts.submitted += count;
    counts.rejected += counters.rejected * count;
    if (counters.slice !== null) counts[PIE_COLUMN_OF.get(counters.slice)!] += count;
    const operator = this.operators.at(`${span} ${bucket} ${operatorId} ${hub}`, () => ({
      span,
      bucket,
      hub_code: hub,
      operator_id: operatorId,
      submitted: 0,
      rejected: 0,
    }));
    operator.submitted += count;
    operator.rejected += counters.rejected * count;
  }

  /** A record's counters on the quarter hour of one of its times (event 0: submit, 1: verify), per hub and for all. */
  private addSeries(
    span: number,
    bucket: number,
    hub: string,
    event: 0 | 1,
    quarter: number,
    day: DayCounters,
    count: number,
  ): void {
    for (const all_hubs of [0, 1] as const) {
      const code = all_hubs ? '' : hub;
      const row = this.series.at(`${all_hubs} ${span} ${bucket} ${event} ${quarter} ${code}`, () => ({
        all_hubs,
        hub_code: code,
        span,
        bucket,
        event,
        quarter,
        rejected: 0,
        volume: 0,
      }));
      row.rejected += day.rejected * count;
      row.volume += day.volume * count;
    }
  }

  /** The changed rows of each table. */
  tables(): SummaryRows {
    const hubs = [...this.hubs].sort().map((hub_code) => ({ hub_code, hub_key: hubKey(hub_code) }));
    return [
      [HUBS, hubs],
      [COUNTS, this.counts.changed()],
      [OPERATORS, this.operators.changed()],
      [SERIES, this.series.changed()],
    ];
  }
}

/** Rows in statements of at most 200 (SQLite allows 32,766 parameters a statement). */
function chunks<T>(rows: T[]): T[][] {
  const size = 200;
  const result: T[][] = [];
  for (let i = 0; i < rows.length; i += size) result.push(rows.slice(i, i + size));
  return result;
}

/**
 * A deleted user's submissions: device_records forgets the submitter (on delete set null), so the
 * summaries count them under operator 0 too. Run in the deletion's transaction.
 */
export async function forgetOperator(trx: Kysely<Database>, userId: number): Promise<void> {
  await trx
    .insertInto('dashboard_operators')
    .columns(['span', 'bucket', 'hub_code', 'operator_id', 'submitted', 'rejected'])
    .expression((eb) =>
      eb
        .selectFrom('dashboard_operators')
        .select(['span', 'bucket', 'hub_code', eb.lit(0).as('operator_id'), 'submitted', 'rejected'])
        .where('operator_id', '=', userId),
    )
    .onConflict((oc) =>
      oc.columns(['span', 'bucket', 'hub_code', 'operator_id']).doUpdateSet((eb) => ({
        submitted: eb('dashboard_operators.submitted', '+', eb.ref('excluded.submitted')),
        rejected: eb('dashboard_operators.rejected', '+', eb.ref('excluded.rejected')),
      })),
    )
    .execute();
  await trx.deleteFrom('dashboard_operators').where('operator_id', '=', userId).execute();
}

// ---------------------------------------------------------------------------------------------
// Rebuilding from device_records: after a migration or a bulk load. In SQL, grouped, for speed at
// millions of records; the test "the SQL rebuild counts every kind of record as recordCounters …"
// (api/test/dashboard.test.ts) holds it to the counting rule.

type RecordsEb = ExpressionBuilder<Database, 'device_records'>;

/**
 * '' as a literal, not a parameter: PostgreSQL takes a select expression as grouped only when the
 * GROUP BY's is the same text, and two parameters are two texts.
 */
const EMPTY = sql.lit('');

/** `value` divided by `divisor`, floored (SQL's `/` truncates toward zero), right before 1970 too. */
function floorDivSql<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  value: Expression<number | string | null>,
  divisor: number,
) {
  const d = eb.lit(divisor);
  const remainder = eb(eb.parens(eb(eb(value, '%', d), '+', d)), '%', d);
  return eb.parens(eb(eb.parens(eb(value, '-', eb.parens(remainder))), '/', d));
}

const hourOf = (eb: RecordsEb) => floorDivSql(eb, eb.ref('created_ms'), HOUR_MS);
const hubOf = (eb: RecordsEb) => eb.fn.coalesce('hub_code', EMPTY);
const quarterOf = (eb: RecordsEb, column: 'submit_ms' | 'verify_ms') => floorDivSql(eb, eb.ref(column), QUARTER_MS);
const rejectedResult = (eb: RecordsEb) => eb.or([eb('device_result', 'is', null), eb('device_result', '<>', 'passed')]);
/** The number of rows meeting `condition`. */
const countWhere = <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, condition: Expression<SqlBool>) =>
  eb.fn.sum<number>(eb.case().when(condition).then(1).else(0).end());

/** Runs `work` in a transaction, or in the one `kysely` already is (a migration's). */
const inTransaction = <T>(kysely: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
  kysely.isTransaction ? work(kysely) : kysely.transaction().execute(work);

/**
 * Rebuilds every summary from device_records' ms columns (insert … select … group by): the hour
 * rows from the records, the day rows and the all-hubs series from the hour rows. One
 * transaction. A loader that stores records without DashboardChanges calls this at its end, after
 * setting the ms columns.
 */
export async function rebuildDashboardSummaries(db: Pick<Db, 'kysely' | 'engine'>): Promise<void> {
  await inTransaction(db.kysely, async (trx) => {
    for (const table of SUMMARY_TABLES) await trx.deleteFrom(table).execute();
    await rebuildHubs(trx);
    await rebuildHourCounts(trx);
    await rebuildHourSeries(trx);
    await rebuildAllHubsSeries(trx);
    await rebuildDays(trx);
  });
  // Fresh statistics for the planner after rewriting the summaries. Raw: Kysely has no ANALYZE.
  for (const table of SUMMARY_TABLES) await sql`analyze ${sql.table(table)}`.execute(db.kysely);
}

const SUMMARY_TABLES = ['dashboard_counts', 'dashboard_operators', 'dashboard_series', 'dashboard_hubs'] as const;

async function rebuildHubs(trx: Kysely<Database>): Promise<void> {
  const hubs = await trx.selectFrom('device_records').select('hub_code').distinct().execute();
  const codes = [...new Set(hubs.map((row) => row.hub_code ?? ''))].sort();
  for (const chunk of chunks(codes)) {
    await trx
      .insertInto('dashboard_hubs')
      .values(chunk.map((hub_code) => ({ hub_code, hub_key: hubKey(hub_code) })))
      .execute();
  }
}

/** dashboard_counts and dashboard_operators by hour, from the records. */
async function rebuildHourCounts(trx: Kysely<Database>): Promise<void> {
  await trx
    .insertInto('dashboard_counts')
    .columns(['span', 'bucket', 'hub_code', 'records', 'submitted', 'rejected', ...PIE_COLUMNS])
    .expression((eb) =>
      eb
        .selectFrom('device_records')
        .select((eb) => [
          eb.lit(1).as('span'),
          hourOf(eb).as('bucket'),
          hubOf(eb).as('hub_code'),
          eb.fn.countAll<number>().as('records'),
          eb.fn.sum<number>('is_submit').as('submitted'),
          countWhere(eb, eb.and([eb('is_submit', '=', 1), rejectedResult(eb)])).as('rejected'),
          ...PIE_RESULTS.map((result, i) =>
            countWhere(eb, eb.and([eb('is_submit', '=', 1), eb('device_result', '=', result)])).as(PIE_COLUMNS[i]!),
          ),
        ])
        .where('created_ms', 'is not', null)
        .groupBy((eb) => [hourOf(eb), hubOf(eb)])
        .$call((query) => inKeyOrder(query, COUNTS.keys)),
    )
    .execute();
  await trx
    .insertInto('dashboard_operators')
    .columns(['span', 'bucket', 'hub_code', 'operator_id', 'submitted', 'rejected'])
    .expression((eb) =>
      eb
        .selectFrom('device_records')
        .select((eb) => [
          eb.lit(1).as('span'),
          hourOf(eb).as('bucket'),
          hubOf(eb).as('hub_code'),
          eb.fn.coalesce('submitted_by_id', eb.lit(0)).as('operator_id'),
          eb.fn.countAll<number>().as('submitted'),
          countWhere(eb, rejectedResult(eb)).as('rejected'),
        ])
        .where('created_ms', 'is not', null)
        .where('is_submit', '=', 1)
        .groupBy((eb) => [hourOf(eb), hubOf(eb), eb.fn.coalesce('submitted_by_id', eb.lit(0))])
        .$call((query) => inKeyOrder(query, OPERATORS.keys)),
    )
    .execute();
}

/**
 * dashboard_series by hour, from the records: on the submit time doorstep rejections and
 * submitted-only records, on the verify time verified rejections (submitted or not) and verified
 * submitted records.
 */
async function rebuildHourSeries(trx: Kysely<Database>): Promise<void> {
  const events = [
    {
      event: 0,
      time: 'submit_ms',
      counts: (eb: RecordsEb) =>
        eb.and([eb('is_submit', '=', 1), eb.or([eb('is_verified', '=', 0), rejectedResult(eb)])]),
      volume: (eb: RecordsEb) => countWhere(eb, eb('is_verified', '=', 0)),
    },
    {
      event: 1,
      time: 'verify_ms',
      counts: (eb: RecordsEb) =>
        eb.and([eb('is_verified', '=', 1), eb.or([eb('is_submit', '=', 1), rejectedResult(eb)])]),
      volume: (eb: RecordsEb) => eb.fn.sum<number>('is_submit'),
    },
  ] as const;
  for (const { event, time, counts, volume } of events) {
    await trx
      .insertInto('dashboard_series')
      .columns(['all_hubs', 'hub_code', 'span', 'bucket', 'event', 'quarter', 'rejected', 'volume'])
      .expression((eb) =>
        eb
          .selectFrom('device_records')
          .select((eb) => [
            eb.lit(0).as('all_hubs'),
            hubOf(eb).as('hub_code'),
            eb.lit(1).as('span'),
            hourOf(eb).as('bucket'),
            eb.lit(event).as('event'),
            quarterOf(eb, time).as('quarter'),
            countWhere(eb, rejectedResult(eb)).as('rejected'),
            volume(eb).as('volume'),
          ])
          .where('created_ms', 'is not', null)
          .where(time, 'is not', null)
          .where(counts)
          .groupBy((eb) => [hubOf(eb), hourOf(eb), quarterOf(eb, time)])
          .$call((query) => inKeyOrder(query, SERIES.keys)),
      )
      .execute();
  }
}

/** The all-hubs rows of dashboard_series by hour, from its rows by hub. */
async function rebuildAllHubsSeries(trx: Kysely<Database>): Promise<void> {
  await trx
    .insertInto('dashboard_series')
    .columns(['all_hubs', 'hub_code', 'span', 'bucket', 'event', 'quarter', 'rejected', 'volume'])
    .expression((eb) =>
      eb
        .selectFrom('dashboard_series')
        .select((eb) => [
          eb.lit(1).as('all_hubs'),
          EMPTY.as('hub_code'),
          'span',
          'bucket',
          'event',
          'quarter',
          eb.fn.sum<number>('rejected').as('rejected'),
          eb.fn.sum<number>('volume').as('volume'),
        ])
        .where('all_hubs', '=', 0)
        .groupBy(['span', 'bucket', 'event', 'quarter'])
        .$call((query) => inKeyOrder(query, SERIES.keys)),
    )
    .execute();
}

/** The day rows of every summary, from its hour rows. */
async function rebuildDays(trx: Kysely<Database>): Promise<void> {
  /** The first hour of the day of an hour `bucket`. */
  const dayOf = <TB extends keyof Database>(eb: ExpressionBuilder<Database, TB>, bucket: Expression<number | string>) =>
    eb(floorDivSql(eb, bucket, 24), '*', eb.lit(24));
  await trx
    .insertInto('dashboard_counts')
    .columns(['span', 'bucket', 'hub_code', ...COUNT_VALUES])
    .expression((eb) =>
      eb
        .selectFrom('dashboard_counts')
        .select((eb) => [
          eb.lit(24).as('span'),
          dayOf(eb, eb.ref('bucket')).as('bucket'),
          'hub_code',
          ...COUNT_VALUES.map((column) => eb.fn.sum<number>(column).as(column)),
        ])
        .where('span', '=', 1)
        .groupBy((eb) => [dayOf(eb, eb.ref('bucket')), 'hub_code'])
        .$call((query) => inKeyOrder(query, COUNTS.keys)),
    )
    .execute();
  await trx
    .insertInto('dashboard_operators')
    .columns(['span', 'bucket', 'hub_code', 'operator_id', ...OPERATOR_VALUES])
    .expression((eb) =>
      eb
        .selectFrom('dashboard_operators')
        .select((eb) => [
          eb.lit(24).as('span'),
          dayOf(eb, eb.ref('bucket')).as('bucket'),
          'hub_code',
          'operator_id',
          ...OPERATOR_VALUES.map((column) => eb.fn.sum<number>(column).as(column)),
        ])
        .where('span', '=', 1)
        .groupBy((eb) => [dayOf(eb, eb.ref('bucket')), 'hub_code', 'operator_id'])
        .$call((query) => inKeyOrder(query, OPERATORS.keys)),
    )
    .execute();
  await trx
    .insertInto('dashboard_series')
    .columns(['all_hubs', 'hub_code', 'span', 'bucket', 'event', 'quarter', ...SERIES_VALUES])
    .expression((eb) =>
      eb
        .selectFrom('dashboard_series')
        .select((eb) => [
          'all_hubs',
          'hub_code',
          eb.lit(24).as('span'),
          dayOf(eb, eb.ref('bucket')).as('bucket'),
          'event',
          'quarter',
          ...SERIES_VALUES.map((column) => eb.fn.sum<number>(column).as(column)),
        ])
        .where('span', '=', 1)
        .groupBy((eb) => ['all_hubs', 'hub_code', dayOf(eb, eb.ref('bucket')), 'event', 'quarter'])
        .$call((query) => inKeyOrder(query, SERIES.keys)),
    )
    .execute();
}
