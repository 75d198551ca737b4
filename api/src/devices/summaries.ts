// What the pick list reads without touching device_records: how many records have each
// (hub, status, result) — device_counts, so an unfiltered or filtered count without a search is a
// sum over a few hundred rows however many records there are — and the hub codes present with
// the spelling of their first record — device_hubs, the hub choices. Every write of device_records
// changes them in its own transaction: the upload (storeRecords.ts) for the rows it inserts, the
// field-scan engine through refreshDerivedColumns, the bulk loader and migration 006 by a rebuild.
import type { Database as SQLiteDatabase } from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database, StatusKey } from '../db/schema';
import { DERIVED_COLUMNS, FACT_COLUMNS, derivedColumns, type DerivedColumns } from './derivedColumns';

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

/** Net changes to the summaries, gathered in JS over a batch and written in a few statements. */
export class SummaryChanges {
  private readonly counts = new Map<string, CountChange>();
  private readonly hubs = new Map<string, HubEntry>();

  private count(keys: SummaryKeys, by: number): void {
    const change = { hub_key: keys.hub_key ?? '', status_key: keys.status_key, result_key: keys.result_key ?? '' };
    const key = `${change.hub_key}\u0000${change.status_key}\u0000${change.result_key}`;
    const entry = this.counts.get(key);
    if (entry) entry.total += by;
    else this.counts.set(key, { ...change, total: by });
  }

  /** A record stored: `hubCode` as stored (its trimmed spelling is what the hub choices show). */
  added(id: number, hubCode: string | null, keys: SummaryKeys): void {
    this.count(keys, 1);
    // hubCodeOf's spelling; hub_key is its lower-case form.
    const spelling = hubCode?.trim();
    if (!spelling || keys.hub_key === null) return;
    const entry = this.hubs.get(keys.hub_key);
    if (!entry || id < entry.first_id) this.hubs.set(keys.hub_key, { hub_key: keys.hub_key, hub_code: spelling, first_id: id });
  }

  /** A record's keys changed from `before` to `after` (hub spellings never change: hub codes are never updated). */
  changed(before: SummaryKeys, after: SummaryKeys): void {
    this.count(before, -1);
    this.count(after, 1);
  }

  /**
   * Count changes in one order (by key), so two transactions changing the same rows lock them in
   * the same order and cannot deadlock on PostgreSQL; rows whose changes cancel out are left alone.
   */
  countChanges(): CountChange[] {
    return [...this.counts.entries()]
      .filter(([, change]) => change.total !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, change]) => change);
  }

  hubEntries(): HubEntry[] {
    return [...this.hubs.values()].sort((a, b) => (a.hub_key < b.hub_key ? -1 : a.hub_key > b.hub_key ? 1 : 0));
  }
}

/** Writes the changes through Kysely; call it in the transaction that made them. */
export async function applySummaryChanges(kysely: Kysely<Database>, changes: SummaryChanges): Promise<void> {
  const counts = changes.countChanges();
  if (counts.length > 0) {
    await kysely
      .insertInto('device_counts')
      .values(counts)
      .onConflict((oc) =>
        oc
          .columns(['hub_key', 'status_key', 'result_key'])
          .doUpdateSet((eb) => ({ total: eb(eb.ref('device_counts.total'), '+', eb.ref('excluded.total')) })),
      )
      .execute();
  }
  const hubs = changes.hubEntries();
  if (hubs.length > 0) {
    await kysely
      .insertInto('device_hubs')
      .values(hubs)
      .onConflict((oc) =>
        oc
          .column('hub_key')
          .doUpdateSet((eb) => ({ hub_code: eb.ref('excluded.hub_code'), first_id: eb.ref('excluded.first_id') }))
          .where((eb) => eb(eb.ref('excluded.first_id'), '<', eb.ref('device_hubs.first_id'))),
      )
      .execute();
  }
}

/** The same writes as prepared SQLite statements, for the upload's synchronous transaction. */
export function sqliteSummaryWriter(sqlite: SQLiteDatabase): (changes: SummaryChanges) => void {
  const count = sqlite.prepare(
    `insert into device_counts (hub_key, status_key, result_key, total) values (?, ?, ?, ?)
     on conflict (hub_key, status_key, result_key) do update set total = device_counts.total + excluded.total`,
  );
  const hub = sqlite.prepare(
    `insert into device_hubs (hub_key, hub_code, first_id) values (?, ?, ?)
     on conflict (hub_key) do update set hub_code = excluded.hub_code, first_id = excluded.first_id
     where excluded.first_id < device_hubs.first_id`,
  );
  return (changes) => {
    for (const c of changes.countChanges()) count.run(c.hub_key, c.status_key, c.result_key, c.total);
    for (const h of changes.hubEntries()) hub.run(h.hub_key, h.hub_code, h.first_id);
  };
}

/** Stored values compare as text: PostgreSQL answers bigint columns as text. */
const sameValue = (a: unknown, b: unknown) => (a === null || b === null ? a === b : String(a) === String(b));

/**
 * After a write changed fields of record `id`, inside the same transaction: computes its derived
 * columns again from what is stored now, writes those that changed and moves the record in the
 * summaries. The row is read after the caller's own update, which holds its lock on PostgreSQL,
 * so no other transaction can change it in between.
 */
export async function refreshDerivedColumns(trx: Kysely<Database>, id: number): Promise<void> {
  const row = await trx
    .selectFrom('device_records')
    .select([...FACT_COLUMNS, ...DERIVED_COLUMNS])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const next = derivedColumns(row);
  if (DERIVED_COLUMNS.every((column) => sameValue(row[column], next[column]))) return;
  await trx.updateTable('device_records').set(next).where('id', '=', id).execute();
  const changes = new SummaryChanges();
  changes.changed(row, next);
  await applySummaryChanges(trx, changes);
}

/**
 * The summaries computed afresh from device_records (after a bulk load or a backfill, whose rows
 * were not counted one by one): counts by one GROUP BY, hubs from the lowest id of each hub key.
 */
export async function rebuildSummaries(kysely: Kysely<Database>): Promise<void> {
  await kysely.deleteFrom('device_counts').execute();
  await sql`
    insert into device_counts (hub_key, status_key, result_key, total)
    select coalesce(hub_key, ''), status_key, coalesce(result_key, ''), count(*)
    from device_records group by 1, 2, 3`.execute(kysely);

  await kysely.deleteFrom('device_hubs').execute();
  const firsts = await kysely
    .selectFrom('device_records')
    .select((eb) => eb.fn.min<number>('id').as('first_id'))
    .where('hub_key', 'is not', null)
    .groupBy('hub_key')
    .execute();
  const ids = firsts.map((row) => Number(row.first_id));
  const changes = new SummaryChanges();
  for (let start = 0; start < ids.length; start += 1000) {
    const rows = await kysely
      .selectFrom('device_records')
      .select(['id', 'hub_code', 'hub_key', 'status_key', 'result_key'])
      .where('id', 'in', ids.slice(start, start + 1000))
      .execute();
    for (const row of rows) changes.added(row.id, row.hub_code, row);
  }
  const hubs = changes.hubEntries();
  for (let start = 0; start < hubs.length; start += 1000) {
    await kysely
      .insertInto('device_hubs')
      .values(hubs.slice(start, start + 1000))
      .execute();
  }
}
