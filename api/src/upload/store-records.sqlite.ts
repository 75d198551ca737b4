// SQLite: an upload's records inserted one prepared statement at a time, in a Kysely transaction
// (store-records.ts).
import type { Database as SQLiteDatabase } from 'better-sqlite3';
import type { Db } from '../db/schema';
import { sqliteChangeStamps } from '../writes/change-order.sqlite';
import type { RecordRow } from '../writes/record-changes';
import type { ShipmentRecord } from './shipment-rows';
import {
  changesOf,
  COLUMN_NAMES,
  rowOf,
  storedOrOwn,
  storedValues,
  type RecordStore,
  type StoreTarget,
} from './stored-rows';

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
  // SQLite's defaults are constants: the change stamps (writes/change-order.ts) are given here.
  const { change_order, changed_ms } = sqliteChangeStamps;
  const insert = sqlite.prepare(
    `insert into device_records (${COLUMN_NAMES.join(', ')}, change_order, changed_ms)
     values (${COLUMN_NAMES.map(() => '?').join(', ')}, ${change_order}, ${changed_ms})
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
export function sqliteStore(db: Db, { uploadId, resumed }: StoreTarget): RecordStore {
  const sqlite = db.sqlite!;
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
