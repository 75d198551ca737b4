// SQLite's search table: an FTS5 trigram table (migration 006), filled from the tail
// (search-index.ts). Ids only grow (AUTOINCREMENT) and there is one writer, so the tail is exactly
// the records above the mark.
import type { Db } from '../db/schema';
import type { SearchIndexing } from './search-index';

/** Adds up to `rows` records of the tail to the search table; false when there were none. */
function indexChunk(db: Db, rows: number): Promise<boolean> {
  const sqlite = db.sqlite!;
  const chunk = sqlite.transaction((): boolean => {
    const from = sqlite.prepare('select indexed_through from device_search_state').pluck().get() as number;
    const to = sqlite
      .prepare('select max(id) from (select id from device_records where id > ? order by id limit ?)')
      .pluck()
      .get(from, rows) as number | null;
    if (to === null) return false;
    sqlite
      .prepare(
        'insert into device_search (rowid, tracking_id) select id, tracking_id from device_records where id > ? and id <= ?',
      )
      .run(from, to);
    sqlite.prepare('update device_search_state set indexed_through = ?').run(to);
    return true;
  });
  // Holding a Kysely connection keeps any other request's Kysely transaction out of this one.
  return db.kysely.connection().execute(async () => chunk());
}

export const sqliteSearchIndexing: SearchIndexing = {
  chunks: async (db, rows) => () => indexChunk(db, rows),
};
