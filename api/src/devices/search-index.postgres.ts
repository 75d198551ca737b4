// PostgreSQL's search table: the lower-cased tracking IDs with a pg_trgm index (migration 014),
// filled from the tail (search-index.ts) up to the ids no insert can still take.
import { sql } from 'kysely';
import { lockUntilCommit } from '../db/engines';
import type { Db } from '../db/schema';
import type { SearchIndexing } from './search-index';

/** The lock of record inserts against the indexer: an arbitrary constant no other lock of the API uses. */
export const RECORD_INSERTS = 0x73_65_61_72_63; // 'searc'

/**
 * The highest id the sequence has handed out, read when no insert of records is under
 * way (its transactions hold RECORD_INSERTS shared): every record with an id up to it is committed.
 */
function settledThrough(db: Db): Promise<number> {
  return db.transaction(async (trx) => {
    await lockUntilCommit(trx, db, RECORD_INSERTS);
    const { rows } = await sql<{ through: number | string }>`
      select case when is_called then last_value else last_value - 1 end as through
      from device_records_id_seq`.execute(trx);
    return Number(rows[0]!.through);
  });
}

/** Adds the tail's records up to `through`, at most `rows` ids of it; false when there were none. */
function indexChunk(db: Db, through: number, rows: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    // For update: indexers of several instances take turns.
    const { indexed_through: from } = await trx
      .selectFrom('device_search_state')
      .select('indexed_through')
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (from >= through) return false;
    const to = Math.min(through, from + rows);
    await trx
      .insertInto('device_search')
      .columns(['id', 'tracking_key'])
      .expression((eb) =>
        eb
          .selectFrom('device_records')
          .select((records) => ['id', records.fn<string>('lower', ['tracking_id']).as('tracking_key')])
          .where('id', '>', from)
          .where('id', '<=', to),
      )
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    await trx.updateTable('device_search_state').set({ indexed_through: to }).execute();
    return true;
  });
}

export const postgresSearchIndexing: SearchIndexing = {
  async chunks(db, rows) {
    const through = await settledThrough(db);
    return () => indexChunk(db, through, rows);
  },
};
