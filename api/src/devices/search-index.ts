// The tracking-ID search index of both engines, kept behind the writes: the table device_search
// (SQLite: an FTS5 trigram table, migration 006; PostgreSQL: the lower-cased IDs with a pg_trgm
// index, migration 014) holds the records up to device_search_state.indexed_through; the newer
// ones (the tail) are added after the write that stored them, in chunks, off the writer's path.
// Indexing a row in the upload's transaction cost SQLite's FTS5 about as much as inserting it with
// all its other indexes, and PostgreSQL's trigram index a good part of the upload
// (docs/benchmarks.md#upload), so the upload stores its rows and leaves them to this. A search
// reads the index and the tail (matchIds of pick-list-search.*.ts): it is exact whether the tail
// is empty or not.
//
// The mark may pass an id only once no record can still be stored with it. On SQLite ids only grow
// (AUTOINCREMENT) and there is one writer, so the tail is exactly the records above the mark. On
// PostgreSQL transactions take ids from the sequence in one order and may commit in the other:
// every insert of records holds RECORD_INSERTS shared until its commit (holdRecordInserts), and the
// indexer reads how far the sequence has gone under the same lock taken exclusively, when no such
// insert is under way; it never indexes past that.
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { forEngine, isClosed, lockUntilCommit } from '../db/engines';
import type { Database, Db } from '../db/schema';
import { postgresSearchIndexing, RECORD_INSERTS } from './search-index.postgres';
import { sqliteSearchIndexing } from './search-index.sqlite';

/** Records indexed per transaction: a few tens of ms, so requests are not held up for long. */
const CHUNK_ROWS = 20_000;

/** How an engine fills its search table (search-index.postgres.ts, search-index.sqlite.ts). */
export interface SearchIndexing {
  /** What adds the next chunk of at most `rows` records of the tail (false when there was none), for one catch-up. */
  chunks(db: Db, rows: number): Promise<() => Promise<boolean>>;
}

const indexingOf = (db: Db): SearchIndexing =>
  forEngine(db, { postgres: postgresSearchIndexing, sqlite: sqliteSearchIndexing });

/** Holds record inserts' lock, shared, until `trx` commits: before the ids are taken. */
export const holdRecordInserts = (trx: Kysely<Database>, db: Db): Promise<void> =>
  lockUntilCommit(trx, db, RECORD_INSERTS, 'shared');

/** A device_records row is in the tail: the search table does not hold it yet. Raw: part of the engines' raw searches. */
export const inTail: RawBuilder<SqlBool> = sql<SqlBool>`id > (select indexed_through from device_search_state)`;

/**
 * Per database: the ingests under way in this process, and what waits for the last one to end.
 * While an upload stores its rows, indexing the tail (the previous upload's rows, at start the
 * rows of uploads an instance left) would compete with it for the one SQLite writer, or for
 * PostgreSQL's two cores: the indexer waits between chunks until the ingest ends, which then
 * schedules it (docs/benchmarks.md#into-a-loaded-database). Searches read the tail meanwhile, so
 * they stay exact.
 */
const ingests = new WeakMap<Db, { count: number; ended: Promise<void>; end: () => void }>();

/** An ingest starts storing rows: indexing waits until `resume()` is called by each ingest under way. */
export function pauseSearchIndexing(db: Db): () => void {
  let state = ingests.get(db);
  if (!state) {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    state = { count: 0, ended, end };
    ingests.set(db, state);
  }
  state.count++;
  let resumed = false;
  return () => {
    if (resumed) return;
    resumed = true;
    if (--state.count > 0) return;
    ingests.delete(db);
    state.end();
  };
}

/** Resolves once no ingest of this process is storing rows. */
async function ingestsEnded(db: Db): Promise<void> {
  for (let state = ingests.get(db); state; state = ingests.get(db)) await state.ended;
}

/** Indexes the whole tail now, a chunk at a time, letting other work (and every ingest) run between chunks. */
export async function catchUpSearchIndex(db: Db): Promise<void> {
  await ingestsEnded(db);
  const chunk = await indexingOf(db).chunks(db, CHUNK_ROWS);
  while (await chunk()) {
    await new Promise((resolve) => setImmediate(resolve));
    await ingestsEnded(db);
  }
}

const running = new WeakMap<Db, { again: boolean }>();

/** Starts indexing the tail in the background (after an upload, at start-up); one run per database at a time. */
export function scheduleSearchIndexing(db: Db): void {
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
      // A database closed or unreachable meanwhile (the server stopping, a restart) ends the run;
      // the tail waits for the next upload or start, and searches read it meanwhile.
      if (!isClosed(db)) console.error(`Indexing tracking IDs for search failed: ${String(error)}`);
    } finally {
      running.delete(db);
    }
  })();
}
