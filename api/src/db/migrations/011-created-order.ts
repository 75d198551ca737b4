// One index for the records in created order: (created_ms, id). The report walks it
// (src/report/rows.ts) and the dashboard counts the partial hours of a timeframe along it
// (src/dashboard/figures.ts). It replaces two: (created_date, id), on which the report compared
// the stored text, and created_ms alone. Every record stored writes one index fewer.
import type { Kysely, Migration } from 'kysely';

export function createdOrder(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('device_records_by_created')
        .on('device_records')
        .columns(['created_ms', 'id'])
        .execute();
      await db.schema.dropIndex('device_records_created_date_id').execute();
      await db.schema.dropIndex('device_records_created_ms').execute();
    },
  };
}
