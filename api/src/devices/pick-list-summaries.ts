// What the pick list reads without touching device_records: how many records have each
// (hub, status, result) — device_counts, so an unfiltered or filtered count without a search is a
// sum over a few hundred rows however many records there are — and the hub codes present with
// the spelling of their first record — device_hubs, the hub choices. Every write of device_records
// changes them in its own transaction (RecordChanges, src/writes/record-changes.ts); the bulk loader
// and migration 006 rebuild them.
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database, StatusKey } from '../db/schema';
import type { DerivedColumns } from '../writes/derived-columns';
import { additiveTable, type SummaryRows, type SummaryTable } from '../writes/summary-tables';

/** The columns the summaries are keyed by. */
type SummaryKeys = Pick<DerivedColumns, 'hub_key' | 'status_key' | 'result_key'>;

interface CountChange {
  hub_key: string;
  status_key: StatusKey;
  result_key: string;
  total: number;
}

interface HubEntry {
  hub_key: string;
  hub_code: string;
  first_id: number;
}

const COUNTS = additiveTable(
  'device_counts',
  [
    ['hub_key', 'text'],
    ['status_key', 'text'],
    ['result_key', 'text'],
  ],
  ['total'],
  'bigint',
);
/** A hub's spelling is its first record's: a row of a lower first id replaces it. */
const HUBS: SummaryTable = {
  name: 'device_hubs',
  columns: [
    ['hub_key', 'text'],
    ['hub_code', 'text'],
    ['first_id', 'integer'],
  ],
  onConflict: `on conflict (hub_key) do update set hub_code = excluded.hub_code, first_id = excluded.first_id
    where excluded.first_id < device_hubs.first_id`,
};

/** The hub choice a record makes: hubCodeOf's spelling (the trimmed hub code), keyed by its lower-case form. */
function hubEntry(id: number, hubCode: string | null, hubKey: string | null): HubEntry | null {
  const spelling = hubCode?.trim();
  return spelling && hubKey !== null ? { hub_key: hubKey, hub_code: spelling, first_id: id } : null;
}

/** Net changes to the pick list's summaries, gathered in JS over a write. */
export class PickListChanges {
  private readonly counts = new Map<string, CountChange>();
  private readonly hubs = new Map<string, HubEntry>();

  private count(keys: SummaryKeys, by: number): void {
    const change = { hub_key: keys.hub_key ?? '', status_key: keys.status_key, result_key: keys.result_key ?? '' };
    const key = `${change.hub_key}\u0000${change.status_key}\u0000${change.result_key}`;
    const entry = this.counts.get(key);
    if (entry) entry.total += by;
    else this.counts.set(key, { ...change, total: by });
  }

  /** A record stored: `hubCode` as stored. */
  added(id: number, hubCode: string | null, keys: SummaryKeys): void {
    this.count(keys, 1);
    const hub = hubEntry(id, hubCode, keys.hub_key);
    if (!hub) return;
    const entry = this.hubs.get(hub.hub_key);
    if (!entry || id < entry.first_id) this.hubs.set(hub.hub_key, hub);
  }

  /** A record's keys changed from `before` to `after` (hub spellings never change: hub codes are never updated). */
  changed(before: SummaryKeys, after: SummaryKeys): void {
    this.count(before, -1);
    this.count(after, 1);
  }

  /**
   * The changed rows, in key order (two transactions changing the same rows lock them in the same
   * order); counts whose changes cancel out are left alone.
   */
  tables(): SummaryRows {
    const byKey = <R>(entries: Iterable<[string, R]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return [
      [
        COUNTS,
        byKey(this.counts.entries())
          .map(([, change]) => change)
          .filter((change) => change.total !== 0),
      ],
      [HUBS, byKey(this.hubs.entries()).map(([, entry]) => entry)],
    ];
  }
}

/**
 * The summaries computed afresh from device_records (after a bulk load or a backfill, whose rows
 * were not counted one by one): counts by one GROUP BY, hubs from the lowest id of each hub key.
 */
export async function rebuildPickListSummaries(kysely: Kysely<Database>): Promise<void> {
  await kysely.deleteFrom('device_counts').execute();
  // '' as a literal, not a parameter: PostgreSQL takes a select expression as grouped only when
  // the GROUP BY's is the same text, and two parameters are two texts.
  const orEmpty = (eb: ExpressionBuilder<Database, 'device_records'>, column: 'hub_key' | 'result_key') =>
    eb.fn.coalesce(column, sql.lit(''));
  await kysely
    .insertInto('device_counts')
    .columns(['hub_key', 'status_key', 'result_key', 'total'])
    .expression((eb) =>
      eb
        .selectFrom('device_records')
        .select((eb) => [
          orEmpty(eb, 'hub_key').as('hub_key'),
          'status_key',
          orEmpty(eb, 'result_key').as('result_key'),
          eb.fn.countAll<number>().as('total'),
        ])
        .groupBy((eb) => [orEmpty(eb, 'hub_key'), 'status_key', orEmpty(eb, 'result_key')]),
    )
    .execute();

  await kysely.deleteFrom('device_hubs').execute();
  const firsts = await kysely
    .selectFrom('device_records')
    .select((eb) => eb.fn.min<number>('id').as('first_id'))
    .where('hub_key', 'is not', null)
    .groupBy('hub_key')
    .execute();
  const ids = firsts.map((row) => Number(row.first_id));
  for (let start = 0; start < ids.length; start += 1000) {
    const rows = await kysely
      .selectFrom('device_records')
      .select(['id', 'hub_code', 'hub_key'])
      .where('id', 'in', ids.slice(start, start + 1000))
      .execute();
    const hubs = rows.flatMap((row) => hubEntry(row.id, row.hub_code, row.hub_key) ?? []);
    if (hubs.length > 0) await kysely.insertInto('device_hubs').values(hubs).execute();
  }
}
