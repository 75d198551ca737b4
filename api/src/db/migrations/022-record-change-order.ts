// The records feed (docs/integrations.md#records-feed): each record keeps where its last change
// stands in commit order (`change_order`) and when it was made (`changed_ms`), so an order system
// reads the records changed since its cursor, or since a time, along an index.
// Rows stored before this migration read 0 for both: the feed's beginning, before any change.
// PostgreSQL gives them 0 without rewriting the table (a constant default on ADD COLUMN is kept
// in the catalogue); the defaults it then sets stamp every later insert, the upload's COPY too.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';
import { postgresChangeStamps } from '../../writes/change-order.postgres';

export function recordChangeOrder(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of ['change_order', 'changed_ms'])
        await db.schema
          .alterTable('device_records')
          .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
      if (engine === 'postgres') {
        // Raw: Kysely's alterColumn cannot set an expression default.
        for (const [column, stamp] of Object.entries(postgresChangeStamps))
          await sql`alter table device_records alter column ${sql.ref(column)} set default ${sql.raw(stamp)}`.execute(
            db,
          );
      }
      await db.schema
        .createIndex('device_records_by_change')
        .on('device_records')
        .columns(['change_order', 'id'])
        .execute();
      // updated_since finds its first change by time: the index answers it alone (covering change_order).
      await db.schema
        .createIndex('device_records_by_change_time')
        .on('device_records')
        .columns(['changed_ms', 'change_order'])
        .execute();
    },
  };
}
