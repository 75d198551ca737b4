// Inserting a batch of valid upload rows into device_records, telling which were new: a tracking
// ID already stored is left as it is (ON CONFLICT DO NOTHING). The other columns keep their
// defaults: nothing submitted or verified yet.
import { sql } from 'kysely';
import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import type { Db } from '../db/schema';
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

export function recordStore(db: Db): RecordStore {
  return db.sqlite ? sqliteStore(db, db.sqlite) : postgresStore(db);
}

/**
 * A multi-row insert per batch, prepared once per batch size (Kysely would prepare it anew for
 * every batch, which on SQLite costs more than half as much as the inserts themselves), without
 * RETURNING, which slowed it by a fifth: when fewer rows than sent are stored, the stored ones are
 * read back by id, as they took the consecutive ids up to the last one inserted.
 */
function sqliteStore(db: Db, sqlite: SQLiteDatabase): RecordStore {
  const statements = new Map<number, Statement>();
  const insertOf = (rows: number) => {
    let statement = statements.get(rows);
    if (!statement) {
      const row = `(${COLUMNS.map(() => '?').join(', ')})`;
      statement = sqlite.prepare(
        `insert into device_records (${COLUMNS.map(([name]) => name).join(', ')}) values ${Array(rows).fill(row).join(', ')}
         on conflict (tracking_id) do nothing`,
      );
      statements.set(rows, statement);
    }
    return statement;
  };
  const storedAfter = sqlite.prepare('select tracking_id from device_records where id > ?').pluck();

  const insertAll = sqlite.transaction((records: ShipmentRecord[]) => {
    const values: unknown[] = [];
    for (const record of records) values.push(...valuesOf(record));
    const { changes, lastInsertRowid } = insertOf(records.length).run(values);
    if (changes === records.length) return records.map(() => true);
    const stored = new Set(changes === 0 ? [] : (storedAfter.all(Number(lastInsertRowid) - changes) as string[]));
    return records.map((record) => stored.has(record.tracking_id));
  });
  // Holding a Kysely connection keeps any other request's Kysely transaction out of this one.
  return (records) => db.kysely.connection().execute(async () => insertAll(records));
}

/** The batch travels as one JSON parameter, so the statement text never changes. */
function postgresStore(db: Db): RecordStore {
  const names = sql.join(COLUMNS.map(([name]) => sql.ref(name)));
  const types = sql.join(COLUMNS.map(([name, type]) => sql`${sql.ref(name)} ${sql.raw(type)}`));
  return async (records) => {
    const { rows } = await sql<Pick<ShipmentRecord, 'tracking_id'>>`
      insert into device_records (${names})
      select ${names} from json_to_recordset(${JSON.stringify(records)}::json) as r(${types})
      on conflict (tracking_id) do nothing
      returning tracking_id`.execute(db.kysely);
    const stored = new Set(rows.map((row) => row.tracking_id));
    return records.map((record) => stored.has(record.tracking_id));
  };
}
