// Inserting a batch of valid upload rows into device_records, telling which were new: a tracking
// ID already stored is left as it is (ON CONFLICT DO NOTHING). The other columns keep their
// defaults (nothing submitted or verified yet) but the derived ones (src/writes/derivedColumns.ts),
// written with each row. In the same transaction the rows stored are added to the summaries
// (RecordChanges). (SQLite's tracking-ID search table takes them after the upload: searchIndex.ts.)
import { sql } from 'kysely';
import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import type { Db } from '../db/schema';
import { DERIVED_COLUMNS, DERIVED_TYPES, derivedColumns, type RecordFacts } from '../writes/derivedColumns';
import { RecordChanges, type RecordRow } from '../writes/recordChanges';
import type { ShipmentRecord } from './shipmentRows';

/** For each record of the batch, in order: whether it was stored. */
export type RecordStore = (records: ShipmentRecord[]) => Promise<boolean[]>;

const COLUMNS = [
  ['tracking_id', 'text'],
  ['hub_code', 'text'],
  ['created_date', 'text'],
  ['device_type', 'text'],
  ['is_blindpick', 'integer'],
  ['device_brand', 'text'],
  ['device_model_name', 'text'],
  ['blind_brand', 'text'],
  ['blind_model', 'text'],
] as const satisfies readonly (readonly [keyof ShipmentRecord, string])[];

/** A record's values in COLUMNS order; spelt out, as it runs for every row. */
const valuesOf = (r: ShipmentRecord) => [
  r.tracking_id,
  r.hub_code,
  r.created_date,
  r.device_type,
  r.is_blindpick,
  r.device_brand,
  r.device_model_name,
  r.blind_brand,
  r.blind_model,
];

/** A new record as the summaries see it (id 0 until stored): nothing has happened to it yet. */
function rowOf(r: ShipmentRecord): RecordRow {
  const row = {
    id: 0,
    submitted_by_id: null,
    hub_code: r.hub_code,
    created_date: r.created_date,
    is_submit: 0,
    submit_time: null,
    is_verified: 0,
    verify_time: null,
    is_verified_rc_by: 0,
    device_result: null,
  } satisfies RecordFacts & Partial<RecordRow>;
  // Object.assign, not a spread: spreading an object this wide costs V8 several µs a row.
  return Object.assign(row, derivedColumns(row));
}

const COLUMN_NAMES = [...COLUMNS.map(([name]) => name), ...DERIVED_COLUMNS];

/** What the insert reads of a record: its fields and its derived columns, nothing more. */
function insertedOf(r: ShipmentRecord, row: RecordRow): Record<string, unknown> {
  const inserted: Record<string, unknown> = Object.assign<Record<string, unknown>, ShipmentRecord>({}, r);
  for (const column of DERIVED_COLUMNS) inserted[column] = row[column];
  return inserted;
}

/** The summary changes of the rows stored, given their ids (undefined: not stored). */
function changesOf(rows: RecordRow[], ids: (number | undefined)[]): RecordChanges {
  const stored: RecordRow[] = [];
  rows.forEach((row, i) => {
    const id = ids[i];
    if (id !== undefined) stored.push(Object.assign(row, { id }));
  });
  return new RecordChanges().added(stored);
}

export function recordStore(db: Db): RecordStore {
  return db.sqlite ? sqliteStore(db, db.sqlite) : postgresStore(db);
}

/**
 * A multi-row insert per batch, prepared once per batch size (Kysely would prepare it anew for
 * every batch, which on SQLite costs more than half as much as the inserts themselves), without
 * RETURNING, which slowed it by a fifth: when fewer rows than sent are stored, the stored ones are
 * read back by id, as they took the consecutive ids up to the last one inserted, in batch order.
 */
function sqliteStore(db: Db, sqlite: SQLiteDatabase): RecordStore {
  const statements = new Map<number, Statement>();
  const insertOf = (rows: number) => {
    let statement = statements.get(rows);
    if (!statement) {
      const row = `(${COLUMN_NAMES.map(() => '?').join(', ')})`;
      statement = sqlite.prepare(
        `insert into device_records (${COLUMN_NAMES.join(', ')}) values ${Array(rows).fill(row).join(', ')}
         on conflict (tracking_id) do nothing`,
      );
      statements.set(rows, statement);
    }
    return statement;
  };
  const storedAfter = sqlite.prepare('select tracking_id from device_records where id > ?').pluck();

  const insertAll = (records: ShipmentRecord[]) => {
    const values: unknown[] = [];
    const rows = records.map(rowOf);
    records.forEach((record, i) => {
      values.push(...valuesOf(record));
      const row = rows[i]!;
      for (const column of DERIVED_COLUMNS) values.push(row[column]);
    });
    const { changes, lastInsertRowid } = insertOf(records.length).run(values);
    const firstId = Number(lastInsertRowid) - changes + 1;
    let stored: boolean[];
    if (changes === records.length) stored = records.map(() => true);
    else {
      const kept = new Set(changes === 0 ? [] : (storedAfter.all(firstId - 1) as string[]));
      stored = records.map((record) => kept.has(record.tracking_id));
    }
    let id = firstId;
    return {
      stored,
      summaries: changesOf(
        rows,
        stored.map((isStored) => (isStored ? id++ : undefined)),
      ),
    };
  };
  // In a Kysely transaction: its connection held keeps any other request's queries out of it, and
  // the summaries are written through it (synchronously, on SQLite's own handle).
  return (records) =>
    db.kysely.transaction().execute(async (trx) => {
      const { stored, summaries } = insertAll(records);
      await summaries.apply(trx, db);
      return stored;
    });
}

/** The batch travels as one JSON parameter, so the statement text never changes. */
function postgresStore(db: Db): RecordStore {
  const columns: (readonly [string, string])[] = [...COLUMNS, ...DERIVED_COLUMNS.map((name) => [name, DERIVED_TYPES[name]] as const)];
  const names = sql.join(columns.map(([name]) => sql.ref(name)));
  const types = sql.join(columns.map(([name, type]) => sql`${sql.ref(name)} ${sql.raw(type)}`));
  return (records) =>
    db.kysely.transaction().execute(async (trx) => {
      const rows = records.map(rowOf);
      const { rows: inserted } = await sql<{ id: number; tracking_id: string }>`
        insert into device_records (${names})
        select ${names} from json_to_recordset(${JSON.stringify(records.map((r, i) => insertedOf(r, rows[i]!)))}::json) as r(${types})
        on conflict (tracking_id) do nothing
        returning id, tracking_id`.execute(trx);
      const ids = new Map(inserted.map((row) => [row.tracking_id, row.id]));
      await changesOf(
        rows,
        records.map((record) => ids.get(record.tracking_id)),
      ).apply(trx, db);
      return records.map((record) => ids.has(record.tracking_id));
    });
}
