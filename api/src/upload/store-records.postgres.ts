// PostgreSQL: an upload's records stored by COPY, or by an INSERT that skips those stored already
// (store-records.ts).
import { sql } from 'kysely';
import { UNIQUE_VIOLATION, copyRows } from '../db/copy-rows';
import type { Db } from '../db/schema';
import { holdRecordInserts } from '../devices/search-index';
import { DERIVED_COLUMNS, DERIVED_TYPES } from '../writes/derived-columns';
import type { ShipmentRecord } from './shipment-rows';
import {
  changesOf,
  COLUMN_NAMES,
  COLUMNS,
  insertedOf,
  rowOf,
  storedOrOwn,
  storedValues,
  type RecordStore,
  type StoreTarget,
} from './stored-rows';

/**
 * PostgreSQL: each batch by COPY … FROM STDIN straight into device_records, about a third cheaper
 * than an INSERT of the same rows (api/README.md#upload), with their ids taken from the table's
 * sequence beforehand for the summaries. COPY cannot skip a tracking ID already stored: the batch
 * fails as a whole (unique violation) and goes through the INSERT that skips them (postgresInsert).
 * After such a batch, and from the start of a resumed run, batches go through the INSERT until one
 * finds none of its tracking IDs stored: a file sent again does not fail a COPY per batch.
 */
export function postgresStore(db: Db, target: StoreTarget): RecordStore {
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
      // Raw: the batch as one JSON parameter (json_to_recordset), which Kysely's builder cannot read from.
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
