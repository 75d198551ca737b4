// The one- and two-character pieces of the stored tracking IDs (src/devices/id-grams.ts), so that
// a search that short which no ID holds is answered without reading every tracking ID. Filled
// here from the records stored before it, in chunks by id (its time:
// docs/benchmarks.md#server-side-pick-list-and-tracking-id-search).
import { sql, type Kysely, type Migration } from 'kysely';
import type { Database, Engine } from '../schema';
import { fillIdGrams } from '../../devices/id-grams';

export function trackingIdGrams(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      // A few thousand short keys at most, read by key alone: no rowid on SQLite.
      await sql`create table tracking_id_grams (gram text primary key)${sql.raw(engine === 'sqlite' ? ' without rowid' : '')}`.execute(
        db,
      );
      await fillIdGrams(db as Kysely<Database>);
    },
  };
}
