// Inserting a batch of valid upload rows into device_records, telling which were new: a tracking
// ID already stored is left as it is (ON CONFLICT DO NOTHING). The other columns keep their
// defaults (nothing submitted or verified yet) but the derived ones (src/writes/derived-columns.ts),
// written with each row. In the same transaction the rows stored are added to the summaries
// (RecordChanges). (The tracking-ID search table takes them after the upload: search-index.ts,
// whose lock each PostgreSQL batch holds; their one- and two-character pieces are added before
// them: id-grams.ts.)
//
// Each record stored carries its upload and row (upload_id, upload_row), so that an upload run
// again after a run that did not finish (an instance died: lease.ts) tells the rows that run
// stored, which count as stored, from true duplicates: a tracking ID already stored with this
// upload's id and this very row. Only such a resumed run reads them back (one select of the batch's
// conflicting tracking IDs); a first run does not.
import { sql } from 'kysely';
import type { Database as SQLiteDatabase } from 'better-sqlite3';
import { UNIQUE_VIOLATION, copyRows } from '../db/copy-rows';
import type { Db } from '../db/schema';
import { recordIdGrams } from '../devices/id-grams';
import { holdRecordInserts } from '../devices/search-index';
import { DERIVED_COLUMNS, DERIVED_TYPES, derivedColumns, type RecordFacts } from '../writes/derived-columns';
import { RecordChanges, type RecordRow } from '../writes/record-changes';
import type { ShipmentRecord } from './shipment-rows';

/**
 * For each record of the batch (and its row in the file), in order: whether it is stored, by this
 * call or, in a resumed run, by an earlier run of the same upload.
 */
export type RecordStore = (records: ShipmentRecord[], rows: number[]) => Promise<boolean[]>;

/** The upload the records come from. */
export interface StoreTarget {
  uploadId: string;
  /** An earlier run of this upload may have stored some of its rows (HeldUpload.resumed). */
  resumed: boolean;
}

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

/** A new record as the summaries see it (id 0 until stored): nothing has happened to it yet. */
export function rowOf(r: ShipmentRecord): RecordRow {
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

const COLUMN_NAMES = [...COLUMNS.map(([name]) => name), ...DERIVED_COLUMNS, 'upload_id', 'upload_row'];

/** A record's values in COLUMN_NAMES order; its fields spelt out, as it runs for every row. */
function storedValues(r: ShipmentRecord, row: RecordRow, uploadId: string, uploadRow: number): unknown[] {
  const values: unknown[] = [
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
  for (const column of DERIVED_COLUMNS) values.push(row[column]);
  values.push(uploadId, uploadRow);
  return values;
}

/** What the insert reads of a record: its fields, its derived columns and its row in the file, nothing more. */
export function insertedOf(r: ShipmentRecord, row: RecordRow, uploadRow: number): Record<string, unknown> {
  const inserted: Record<string, unknown> = Object.assign<Record<string, unknown>, ShipmentRecord>({}, r);
  for (const column of DERIVED_COLUMNS) inserted[column] = row[column];
  inserted.upload_row = uploadRow;
  return inserted;
}

/**
 * Whether each record is stored: inserted now, or (`own`: the tracking IDs this upload stored
 * before, with the row that stored each) stored from this very row by an earlier run.
 */
function storedOrOwn(
  records: ShipmentRecord[],
  rows: number[],
  inserted: boolean[],
  own: Map<string, number>,
): boolean[] {
  return records.map((record, i) => inserted[i]! || own.get(record.tracking_id) === rows[i]);
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

export function recordStore(db: Db, target: StoreTarget): RecordStore {
  const store = db.sqlite ? sqliteStore(db, db.sqlite, target) : postgresStore(db, target);
  return async (records, uploadRows) => {
    // Before the records: the table of pieces must hold those of every stored record (id-grams.ts).
    await recordIdGrams(
      db,
      records.map((record) => record.tracking_id),
    );
    return store(records, uploadRows);
  };
}

/**
 * SQLite's insert of one record of an upload, a one-row statement prepared once: the record's id,
 * or undefined when its tracking ID is stored already. One statement of 1,000 rows took a fifth
 * longer on the same rows: SQLite keeps a statement journal, a temporary file, for a statement
 * writing several rows, so as to undo it alone should a row fail. Kysely would prepare it anew each
 * batch. (bench:upload times it alone too: what SQLite itself takes of the rows.)
 */
export function sqliteRecordInsert(
  sqlite: SQLiteDatabase,
  uploadId: string,
): (record: ShipmentRecord, row: RecordRow, uploadRow: number) => number | undefined {
  const insert = sqlite.prepare(
    `insert into device_records (${COLUMN_NAMES.join(', ')}) values (${COLUMN_NAMES.map(() => '?').join(', ')})
     on conflict (tracking_id) do nothing`,
  );
  return (record, row, uploadRow) => {
    const { changes, lastInsertRowid } = insert.run(storedValues(record, row, uploadId, uploadRow));
    return changes === 1 ? Number(lastInsertRowid) : undefined;
  };
}

/**
 * The insert above, run for each record of the batch in its transaction: each run tells whether
 * its row was stored and its id.
 */
function sqliteStore(db: Db, sqlite: SQLiteDatabase, { uploadId, resumed }: StoreTarget): RecordStore {
  const insert = sqliteRecordInsert(sqlite, uploadId);
  const storedBefore = sqlite.prepare<[string, string], { tracking_id: string; upload_row: number }>(
    'select tracking_id, upload_row from device_records where upload_id = ? and tracking_id in (select value from json_each(?))',
  );

  const insertAll = (records: ShipmentRecord[], uploadRows: number[]) => {
    const rows = records.map(rowOf);
    const ids = records.map((record, i) => insert(record, rows[i]!, uploadRows[i]!));
    const inserted = ids.map((id) => id !== undefined);
    let stored = inserted;
    if (resumed && inserted.includes(false)) {
      const conflicting = records.filter((_, i) => !inserted[i]).map((record) => record.tracking_id);
      const own = storedBefore.all(uploadId, JSON.stringify(conflicting));
      stored = storedOrOwn(records, uploadRows, inserted, new Map(own.map((r) => [r.tracking_id, r.upload_row])));
    }
    return { stored, summaries: changesOf(rows, ids) };
  };
  // In a Kysely transaction: its connection held keeps any other request's queries out of it, and
  // the summaries are written through it (synchronously, on SQLite's own handle).
  return (records, uploadRows) =>
    db.transaction(async (trx) => {
      const { stored, summaries } = insertAll(records, uploadRows);
      await summaries.apply(trx, db);
      return stored;
    });
}

/**
 * PostgreSQL: each batch by COPY … FROM STDIN straight into device_records, about a third cheaper
 * than an INSERT of the same rows (api/README.md#upload), with their ids taken from the table's
 * sequence beforehand for the summaries. COPY cannot skip a tracking ID already stored: the batch
 * fails as a whole (unique violation) and goes through the INSERT that skips them (postgresInsert).
 * After such a batch, and from the start of a resumed run, batches go through the INSERT until one
 * finds none of its tracking IDs stored: a file sent again does not fail a COPY per batch.
 */
function postgresStore(db: Db, target: StoreTarget): RecordStore {
  const insert = postgresInsert(db, target);
  let copying = !target.resumed;
  return async (records, uploadRows) => {
    if (copying) {
      try {
        return await postgresCopy(db, target.uploadId, records, uploadRows);
      } catch (error) {
        if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
        copying = false;
      }
    }
    const { stored, allNew } = await insert(records, uploadRows);
    copying = allNew;
    return stored;
  };
}

const COPIED_COLUMNS = ['id', ...COLUMN_NAMES];

/** Stores every record of the batch by COPY (failing with UNIQUE_VIOLATION when one is stored already). */
function postgresCopy(db: Db, uploadId: string, records: ShipmentRecord[], uploadRows: number[]): Promise<boolean[]> {
  return db.clientTransaction!(async (client, trx) => {
    const rows = records.map(rowOf);
    await holdRecordInserts(trx, db);
    const { rows: taken } = await client.query<{ ids: number[] }>(
      `select array(select nextval('device_records_id_seq')::integer from generate_series(1, $1)) as ids`,
      [records.length],
    );
    const ids = taken[0]!.ids;
    function* values() {
      for (let i = 0; i < records.length; i++)
        yield [ids[i], ...storedValues(records[i]!, rows[i]!, uploadId, uploadRows[i]!)];
    }
    await copyRows(client, 'device_records', COPIED_COLUMNS, values());
    await changesOf(rows, ids).apply(trx, db);
    return records.map(() => true);
  });
}

/**
 * Stores the records of the batch not stored yet (the batch travels as one JSON parameter, so the
 * statement text never changes); `allNew` when none was.
 */
function postgresInsert(
  db: Db,
  { uploadId, resumed }: StoreTarget,
): (records: ShipmentRecord[], uploadRows: number[]) => Promise<{ stored: boolean[]; allNew: boolean }> {
  const columns: (readonly [string, string])[] = [
    ...COLUMNS,
    ...DERIVED_COLUMNS.map((name) => [name, DERIVED_TYPES[name]] as const),
    ['upload_row', 'integer'],
  ];
  const names = sql.join(columns.map(([name]) => sql.ref(name)));
  const types = sql.join(columns.map(([name, type]) => sql`${sql.ref(name)} ${sql.raw(type)}`));
  return (records, uploadRows) =>
    db.transaction(async (trx) => {
      const rows = records.map(rowOf);
      await holdRecordInserts(trx, db);
      const { rows: inserted } = await sql<{ id: number; tracking_id: string }>`
        insert into device_records (${names}, upload_id)
        select ${names}, ${uploadId}::text
        from json_to_recordset(${JSON.stringify(records.map((r, i) => insertedOf(r, rows[i]!, uploadRows[i]!)))}::json) as r(${types})
        on conflict (tracking_id) do nothing
        returning id, tracking_id`.execute(trx);
      const ids = new Map(inserted.map((row) => [row.tracking_id, row.id]));
      await changesOf(
        rows,
        records.map((record) => ids.get(record.tracking_id)),
      ).apply(trx, db);
      const isInserted = records.map((record) => ids.has(record.tracking_id));
      const allNew = inserted.length === records.length;
      if (!resumed || allNew) return { stored: isInserted, allNew };
      const own = await trx
        .selectFrom('device_records')
        .select(['tracking_id', 'upload_row'])
        .where('upload_id', '=', uploadId)
        .where(
          'tracking_id',
          '=',
          sql<string>`any(${records.filter((_, i) => !isInserted[i]).map((record) => record.tracking_id)}::text[])`,
        )
        .execute();
      return {
        stored: storedOrOwn(records, uploadRows, isInserted, new Map(own.map((r) => [r.tracking_id, r.upload_row!]))),
        allNew,
      };
    });
}
