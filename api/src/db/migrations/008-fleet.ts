// Many instances on one database (docs/operations.md#many-instances):
// - events: what changed, in the order the changes committed, kept a short while so an event
//   stream that reconnects (to any instance) with Last-Event-ID replays what it missed
//   (src/events/). Ids grow with commit order (each write takes the events lock to insert its own).
// - uploads.lease_until_ms: the instance ingesting an upload renews its lease while it works; an
//   upload still 'processing' after its lease ran out was left by an instance that died, and
//   another takes it over (src/upload/lease.ts).
// - device_records.upload_id / upload_row: which upload, and which of its rows, stored a record,
//   so an ingest taken over and run again tells its own rows (stored before) from duplicates.
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../schema';

export function fleet(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await (
        engine === 'postgres'
          ? db.schema.createTable('events').addColumn('id', 'bigserial', (c) => c.primaryKey())
          : db.schema.createTable('events').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      )
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .execute();
      // The replay window is pruned by age.
      await db.schema.createIndex('events_created_ms').on('events').column('created_ms').execute();

      await db.schema.alterTable('uploads').addColumn('lease_until_ms', 'bigint').execute();
      // Adding nullable columns without a default rewrites no row on either engine.
      await db.schema.alterTable('device_records').addColumn('upload_id', 'text').execute();
      await db.schema.alterTable('device_records').addColumn('upload_row', 'integer').execute();
    },
  };
}
