// Inserting a batch of valid upload rows into device_records, telling which were new: a tracking
// ID already stored is left as it is (ON CONFLICT DO NOTHING). The other columns keep their
// defaults (nothing submitted or verified yet) but the derived ones (src/devices/derivedColumns.ts),
// written with each row, and created_ms (the dashboard's reading of created_date). In the same
// transaction the rows stored are added to the pick list's summaries and to the dashboard's.
// (SQLite's tracking-ID search table takes them after the upload: searchIndex.ts.)
import { timeMs } from '@veritas/shared/domain';
import { sql } from 'kysely';
import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import { HOUR_MS, SummaryChanges as DashboardChanges } from '../dashboard/summaries';
import type { Db } from '../db/schema';
import { DERIVED_COLUMNS, derivedColumns, type DerivedColumns } from '../devices/derivedColumns';
import { SummaryChanges, applySummaryChanges, sqliteSummaryWriter } from '../devices/summaries';
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
  ['created_ms', 'bigint'],
] as const satisfies readonly (readonly [keyof StoredRecord, string])[];

type StoredRecord = ShipmentRecord & { created_ms: number | null };

/** PostgreSQL types of the derived columns, for reading them from the batch's JSON. */
const DERIVED_TYPES: Readonly<Record<keyof DerivedColumns, string>> = {
  sort_ms: 'bigint',
  hub_key: 'text',
  status_key: 'text',
  result_key: 'text',
};

/** A record's values in COLUMNS order; spelt out, as it runs for every row. */
const valuesOf = (r: ShipmentRecord, createdMs: number | null) => [
  r.tracking_id,
  r.hub_code,
  r.created_date,
  r.device_type,
  r.is_blindpick,
  r.device_brand,
  r.device_model_name,
  r.blind_brand,
  r.blind_model,
  createdMs,
];

/** The derived columns of a new record: nothing has happened to it yet. */
const derivedOf = (r: ShipmentRecord): DerivedColumns =>
  derivedColumns({
    hub_code: r.hub_code,
    created_date: r.created_date,
    is_submit: 0,
    submit_time: null,
    is_verified: 0,
    verify_time: null,
    is_verified_rc_by: 0,
    device_result: null,
  });

const COLUMN_NAMES = [...COLUMNS.map(([name]) => name), ...DERIVED_COLUMNS];

/**
 * The dashboard's summary changes of the records stored: all pending, so only their created hour and hub
 * count; records sharing both are added at once.
 */
function dashboardChanges(records: ShipmentRecord[], createdMs: (number | null)[], stored: boolean[]): DashboardChanges {
  const groups = new Map<string, { hub_code: string; created_ms: number | null; count: number }>();
  records.forEach((record, i) => {
    if (!stored[i]) return;
    const created = createdMs[i]!;
    const hour = created === null ? null : Math.floor(created / HOUR_MS);
    const key = `${hour} ${record.hub_code}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { hub_code: record.hub_code, created_ms: hour === null ? null : hour * HOUR_MS, count: 1 });
  });
  const changes = new DashboardChanges();
  for (const { hub_code, created_ms, count } of groups.values()) {
    const facts = {
      hub_code,
      created_ms,
      is_submit: 0,
      is_verified: 0,
      device_result: null,
      submitted_by_id: null,
      submit_ms: null,
      verify_ms: null,
    };
    changes.insert(facts, count);
  }
  return changes;
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
  const writeSummaries = sqliteSummaryWriter(sqlite);
  const dashboardStatements = new Map<string, Statement>();

  const insertAll = sqlite.transaction((records: ShipmentRecord[]) => {
    const values: unknown[] = [];
    const derived = records.map(derivedOf);
    const createdMs = records.map((record) => timeMs(record.created_date));
    records.forEach((record, i) => {
      values.push(...valuesOf(record, createdMs[i]!));
      const columns = derived[i]!;
      for (const column of DERIVED_COLUMNS) values.push(columns[column]);
    });
    const { changes, lastInsertRowid } = insertOf(records.length).run(values);
    const firstId = Number(lastInsertRowid) - changes + 1;
    let stored: boolean[];
    if (changes === records.length) stored = records.map(() => true);
    else {
      const kept = new Set(changes === 0 ? [] : (storedAfter.all(firstId - 1) as string[]));
      stored = records.map((record) => kept.has(record.tracking_id));
    }
    if (changes > 0) {
      const summary = new SummaryChanges();
      let id = firstId;
      records.forEach((record, i) => {
        if (stored[i]) summary.added(id++, record.hub_code, derived[i]!);
      });
      writeSummaries(summary);
    }
    dashboardChanges(records, createdMs, stored).applySqlite(sqlite, dashboardStatements);
    return stored;
  });
  // Holding a Kysely connection keeps any other request's Kysely transaction out of this one.
  return (records) => db.kysely.connection().execute(async () => insertAll(records));
}

/** The batch travels as one JSON parameter, so the statement text never changes. */
function postgresStore(db: Db): RecordStore {
  const columns: (readonly [string, string])[] = [...COLUMNS, ...DERIVED_COLUMNS.map((name) => [name, DERIVED_TYPES[name]] as const)];
  const names = sql.join(columns.map(([name]) => sql.ref(name)));
  const types = sql.join(columns.map(([name, type]) => sql`${sql.ref(name)} ${sql.raw(type)}`));
  return (records) =>
    db.kysely.transaction().execute(async (trx) => {
      const derived = records.map(derivedOf);
      const createdMs = records.map((record) => timeMs(record.created_date));
      const { rows } = await sql<{ id: number; tracking_id: string }>`
        insert into device_records (${names})
        select ${names} from json_to_recordset(${JSON.stringify(records.map((r, i) => Object.assign({ created_ms: createdMs[i] }, r, derived[i])))}::json) as r(${types})
        on conflict (tracking_id) do nothing
        returning id, tracking_id`.execute(trx);
      const ids = new Map(rows.map((row) => [row.tracking_id, row.id]));
      const summary = new SummaryChanges();
      records.forEach((record, i) => {
        const id = ids.get(record.tracking_id);
        if (id !== undefined) summary.added(id, record.hub_code, derived[i]!);
      });
      await applySummaryChanges(trx, summary);
      const stored = records.map((record) => ids.has(record.tracking_id));
      await dashboardChanges(records, createdMs, stored).apply(trx, db.engine);
      return stored;
    });
}
