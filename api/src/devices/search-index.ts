// The tracking-ID search index of both engines, kept behind the writes: the table device_search
// (SQLite: an FTS5 trigram table, migration 006; PostgreSQL: the lower-cased IDs with a pg_trgm
// index, migration 014) holds the records up to device_search_state.indexed_through; the newer
// ones (the tail) are added after the write that stored them, in chunks, off the writer's path.
// Indexing a row in the upload's transaction cost SQLite's FTS5 about as much as inserting it with
// all its other indexes, and PostgreSQL's trigram index a good part of the upload
// (docs/benchmarks.md#upload), so the upload stores its rows and leaves them to this. A search reads the index and the tail (pick-list.ts, matchIds): it is
// exact whether the tail is empty or not.
//
// The mark may pass an id only once no record can still be stored with it. On SQLite ids only grow
// (AUTOINCREMENT) and there is one writer, so the tail is exactly the records above the mark. On
// PostgreSQL transactions take ids from the sequence in one order and may commit in the other:
// every insert of records holds RECORD_INSERTS shared until its commit (holdRecordInserts), and the
// indexer reads how far the sequence has gone under the same lock taken exclusively, when no such
// insert is under way; it never indexes past that.
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database, Db } from '../db/schema';

/** Records indexed per transaction: a few tens of ms, so requests are not held up for long. */
const CHUNK_ROWS = 20_000;

/** The advisory lock of record inserts against the indexer: an arbitrary constant no other lock of the API uses. */
const RECORD_INSERTS = 0x73_65_61_72_63; // 'searc'

/** Holds record inserts' lock, shared, until `trx` commits (PostgreSQL; SQLite has one writer anyway): before the ids are taken. */
export async function holdRecordInserts(trx: Kysely<Database>, db: Db): Promise<void> {
  if (db.engine === 'postgres') await sql`select pg_advisory_xact_lock_shared(${sql.lit(RECORD_INSERTS)})`.execute(trx);
}

/** A device_records row is in the tail: the search table does not hold it yet. */
export const inTail: RawBuilder<SqlBool> = sql<SqlBool>`id > (select indexed_through from device_search_state)`;

/** The database was closed (the server stopping): nothing is wrong with the index. */
const closed = (db: Db) => (db.sqlite ? !db.sqlite.open : db.pg!.ending);

/**
 * PostgreSQL: the highest id the sequence has handed out, read when no insert of records is under
 * way (its transactions hold RECORD_INSERTS shared): every record with an id up to it is committed.
 */
function settledThrough(db: Db): Promise<number> {
  return db.transaction(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(RECORD_INSERTS)})`.execute(trx);
    const { rows } = await sql<{ through: number | string }>`
      select case when is_called then last_value else last_value - 1 end as through
      from device_records_id_seq`.execute(trx);
    return Number(rows[0]!.through);
  });
}

/** PostgreSQL: adds the tail's records up to `through`, at most CHUNK_ROWS ids of it; false when there were none. */
function indexChunkPostgres(db: Db, through: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    // For update: indexers of several instances take turns.
    const { indexed_through: from } = await trx
      .selectFrom('device_search_state')
      .select('indexed_through')
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (from >= through) return false;
    const to = Math.min(through, from + CHUNK_ROWS);
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

/** SQLite: adds up to CHUNK_ROWS records of the tail to the search table; false when there were none. */
function indexChunkSqlite(db: Db): Promise<boolean> {
  const sqlite = db.sqlite!;
  const chunk = sqlite.transaction((): boolean => {
    const from = sqlite.prepare('select indexed_through from device_search_state').pluck().get() as number;
    const to = sqlite
      .prepare('select max(id) from (select id from device_records where id > ? order by id limit ?)')
      .pluck()
      .get(from, CHUNK_ROWS) as number | null;
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
  const through = db.engine === 'postgres' ? await settledThrough(db) : 0;
  const chunk = () => (db.engine === 'postgres' ? indexChunkPostgres(db, through) : indexChunkSqlite(db));
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
      if (!closed(db)) console.error(`Indexing tracking IDs for search failed: ${String(error)}`);
    } finally {
      running.delete(db);
    }
  })();
}
