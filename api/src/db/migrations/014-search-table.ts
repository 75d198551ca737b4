// PostgreSQL's tracking-ID search index moves off device_records into a table of its own,
// device_search (id, tracking_key: the lower-cased tracking ID) with the trigram index, filled
// behind the writes as SQLite's search table is (src/devices/search-index.ts): up to
// device_search_state.indexed_through, the newer records (the tail) read directly by a search
// until they are added. A trigram index on device_records made every stored row dearer by about
// a fifth for the upload (api/README.md#upload). At 10M records the table and its index are built
// in a few minutes. SQLite has had its search table since migration 006: nothing to change there.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';
import { addSearchState, addTrigramIndex } from './006-pick-list';

export function searchTable(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine !== 'postgres') return;
      // Read by id (the tail's mark, the joins) and by the trigram index alone.
      await db.schema
        .createTable('device_search')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('tracking_key', 'text', (c) => c.notNull())
        .execute();
      await sql`insert into device_search (id, tracking_key) select id, lower(tracking_id) from device_records`.execute(
        db,
      );
      await addTrigramIndex(
        db,
        sql`create index device_search_trigrams on device_search using gin (tracking_key gin_trgm_ops)`,
      );
      await addSearchState(db);
      await sql`drop index if exists device_records_tracking_trigrams`.execute(db);
      await sql`analyze device_search`.execute(db);
    },
  };
}
