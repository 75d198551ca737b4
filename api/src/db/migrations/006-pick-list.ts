// The server-side pick list (docs/screens.md#server-side-pick-list): the derived columns it
// orders and filters by (src/writes/derived-columns.ts: sort_ms, hub_key, status_key,
// result_key), filled in for the records already stored; an index per order it pages by; the
// tracking-ID search index; and the summaries (src/devices/pick-list-summaries.ts) that answer counts and
// the hub choices without reading the records.
import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import type { Database, Engine } from '../schema';
import { MISSING_TIME_MS, backfillDerivedColumns } from '../../writes/derived-columns';
import { rebuildPickListSummaries } from '../../devices/pick-list-summaries';

/**
 * PostgreSQL: a trigram index on the lower-cased tracking ID serves searches of 3 characters or
 * more (pg_trgm, as migration 003 uses for manufacturer names): `index` creates it (here on
 * device_records; migration 014 moves it to device_search). Where the extension cannot be
 * installed the search still works, by walking the records, and this says so once.
 */
export async function addTrigramIndex(db: Kysely<any>, index: RawBuilder<unknown>): Promise<void> {
  await sql`savepoint tracking_trigrams`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await index.execute(db);
    await sql`release savepoint tracking_trigrams`.execute(db);
  } catch (error) {
    await sql`rollback to savepoint tracking_trigrams`.execute(db);
    console.warn(`Tracking-ID search will not be indexed: pg_trgm could not be installed (${String(error)}).`);
  }
}

/**
 * SQLite: an FTS5 table with the trigram tokenizer over device_records' tracking IDs (external
 * content: it keeps only the index, the text stays in device_records), filled up to
 * device_search_state.indexed_through; records stored later are added behind the writes
 * (src/devices/search-index.ts), and searches read those directly until then. Not by a trigger:
 * FTS5 flushes its pending terms at every statement a trigger runs, which made each inserted row
 * ~20 times dearer than one INSERT … SELECT per batch. Tracking IDs are never updated.
 */
async function addSearchTable(db: Kysely<any>): Promise<void> {
  // columnsize = 0: no per-row sizes (used only for ranking, which a substring search does not need).
  await sql`create virtual table device_search using fts5(
    tracking_id, content = 'device_records', content_rowid = 'id', tokenize = 'trigram', columnsize = 0)`.execute(db);
  await sql`insert into device_search (device_search) values ('rebuild')`.execute(db);
  await addSearchState(db);
}

/** The search table's mark (src/devices/search-index.ts): every record stored so far is indexed. */
export async function addSearchState(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('device_search_state')
    .addColumn('indexed_through', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into device_search_state (indexed_through) select coalesce(max(id), 0) from device_records`.execute(
    db,
  );
}

async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  // SQLite adds a NOT NULL column only with a default; PostgreSQL drops it once the rows are filled,
  // so a writer that forgets the derived columns fails there rather than sorting its rows last.
  await db.schema
    .alterTable('device_records')
    .addColumn('sort_ms', engine === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(MISSING_TIME_MS))
    .execute();
  await db.schema.alterTable('device_records').addColumn('hub_key', 'text').execute();
  await db.schema
    .alterTable('device_records')
    .addColumn('status_key', 'text', (c) => c.notNull().defaultTo('pending'))
    .execute();
  await db.schema.alterTable('device_records').addColumn('result_key', 'text').execute();
  await backfillDerivedColumns(db, engine, ['sort_ms', 'hub_key', 'status_key', 'result_key']);
  if (engine === 'postgres') {
    await sql`alter table device_records alter column sort_ms drop default, alter column status_key drop default`.execute(
      db,
    );
  }

  // Newest first, ties by id: each page is a seek into one of these, then a walk.
  await db.schema
    .createIndex('device_records_by_time')
    .on('device_records')
    .columns(['sort_ms desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('device_records_by_hub')
    .on('device_records')
    .columns(['hub_key', 'sort_ms desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('device_records_by_status')
    .on('device_records')
    .columns(['status_key', 'sort_ms desc', 'id desc'])
    .execute();
  // Only records showing a result: new records (every upload) have none, so they skip this index.
  await db.schema
    .createIndex('device_records_by_result')
    .on('device_records')
    .columns(['result_key', 'sort_ms desc', 'id desc'])
    .where(sql.ref('result_key'), 'is not', null)
    .execute();
  // No query filters on the hub code as stored; hub_key's index replaces it.
  await db.schema.dropIndex('device_records_hub_code').execute();
  if (engine === 'postgres')
    await addTrigramIndex(
      db,
      sql`create index device_records_tracking_trigrams on device_records using gin (lower(tracking_id) gin_trgm_ops)`,
    );
  else await addSearchTable(db);

  await db.schema
    .createTable('device_counts')
    .addColumn('hub_key', 'text', (c) => c.notNull())
    .addColumn('status_key', 'text', (c) => c.notNull())
    .addColumn('result_key', 'text', (c) => c.notNull())
    .addColumn('total', engine === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_counts_pk', ['hub_key', 'status_key', 'result_key'])
    .execute();
  await db.schema
    .createTable('device_hubs')
    .addColumn('hub_key', 'text', (c) => c.primaryKey())
    .addColumn('hub_code', 'text', (c) => c.notNull())
    .addColumn('first_id', 'integer', (c) => c.notNull())
    .execute();
  await rebuildPickListSummaries(db as Kysely<Database>);
  await sql`analyze device_records`.execute(db);
}

export function pickList(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      // PostgreSQL runs each migration in a transaction; SQLite's get one here, so a crash midway
      // leaves the database as it was.
      if (engine === 'sqlite') await db.transaction().execute((trx) => up(trx, engine));
      else await up(db, engine);
    },
  };
}
