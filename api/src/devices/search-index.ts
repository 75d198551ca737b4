// SQLite's tracking-ID search index: the FTS5 trigram table device_search (migration 006) holds
// the records up to device_search_state.indexed_through; the newer ones (the tail) are added
// after the write that stored them, in chunks, off the writer's path. Indexing a row costs FTS5
// about as much as inserting it with all its other indexes (bench/upload.ts: ~70,000 rows/s
// without it, ~50,000 with it in the upload's transaction), so the upload stores its rows and
// leaves them to this, as PostgreSQL's GIN index keeps a pending list. A search reads the index
// and the tail (pick-list.ts, searchCandidates): it is exact whether the tail is empty or not.
// Ids only grow (AUTOINCREMENT) and SQLite has one writer, so the tail is exactly the records
// with an id above the mark.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/schema';

/** Records indexed per transaction: a few tens of ms, so requests are not held up for long. */
const CHUNK_ROWS = 20_000;

/** A device_records row is in the tail: the search table does not hold it yet. */
export const inTail: RawBuilder<SqlBool> = sql<SqlBool>`id > (select indexed_through from device_search_state)`;

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

/** Indexes the whole tail now, a chunk at a time, letting other work run between chunks. */
export async function catchUpSearchIndex(db: Db): Promise<void> {
  if (!db.sqlite) return;
  while (await indexChunk(db, CHUNK_ROWS)) await new Promise((resolve) => setImmediate(resolve));
}

const running = new WeakMap<Db, { again: boolean }>();

/** Starts indexing the tail in the background (after an upload, at start-up); one run per database at a time. */
export function scheduleSearchIndexing(db: Db): void {
  const sqlite = db.sqlite;
  if (!sqlite) return;
  const run = running.get(db);
  if (run) {
    run.again = true;
    return;
  }
  const state = { again: false };
  running.set(db, state);
  void (async () => {
    try {
      do {
        state.again = false;
        await catchUpSearchIndex(db);
      } while (state.again);
    } catch (error) {
      // A database closed meanwhile (the server stopping) ends the run; the tail waits for the next start.
      if (sqlite.open) console.error(`Indexing tracking IDs for search failed: ${String(error)}`);
    } finally {
      running.delete(db);
    }
  })();
}
