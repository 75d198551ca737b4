// The dashboard's figures computed by the server (api/dashboard/, docs/dashboard.md#server-side-figures):
// the times of device_records as the dashboard reads them (ms columns), an index on the created
// time, and the summaries the figures are counted from (src/dashboard/dashboard-summaries.ts). Existing rows
// get their ms columns and the summaries are built from them.
import type { Kysely, Migration } from 'kysely';
import { rebuildDashboardSummaries } from '../../dashboard/dashboard-summaries';
import { backfillDerivedColumns } from '../../writes/derived-columns';
import type { Engine } from '../schema';

const COUNTS = [
  'records',
  'submitted',
  'rejected',
  'passed',
  'e003',
  'e004',
  'e005',
  'e006',
  'e007',
  'e008',
  'e009',
  'e010',
];

export function dashboardFigures(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of ['created_ms', 'submit_ms', 'verify_ms']) {
        await db.schema.alterTable('device_records').addColumn(column, 'bigint').execute();
      }
      // The parts of a timeframe that are no whole UTC hour are counted from the records.
      await db.schema.createIndex('device_records_created_ms').on('device_records').column('created_ms').execute();

      let counts = db.schema
        .createTable('dashboard_counts')
        .addColumn('span', 'integer', (c) => c.notNull())
        .addColumn('bucket', 'bigint', (c) => c.notNull())
        .addColumn('hub_code', 'text', (c) => c.notNull());
      for (const column of COUNTS) counts = counts.addColumn(column, 'integer', (c) => c.notNull().defaultTo(0));
      await counts.addPrimaryKeyConstraint('dashboard_counts_pkey', ['span', 'bucket', 'hub_code']).execute();

      await db.schema
        .createTable('dashboard_operators')
        .addColumn('span', 'integer', (c) => c.notNull())
        .addColumn('bucket', 'bigint', (c) => c.notNull())
        .addColumn('hub_code', 'text', (c) => c.notNull())
        .addColumn('operator_id', 'integer', (c) => c.notNull())
        .addColumn('submitted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('rejected', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('dashboard_operators_pkey', ['span', 'bucket', 'hub_code', 'operator_id'])
        .execute();
      // A deleted user's rows move to operator 0.
      await db.schema
        .createIndex('dashboard_operators_operator_id')
        .on('dashboard_operators')
        .column('operator_id')
        .execute();

      await db.schema
        .createTable('dashboard_series')
        .addColumn('all_hubs', 'integer', (c) => c.notNull())
        .addColumn('hub_code', 'text', (c) => c.notNull())
        .addColumn('span', 'integer', (c) => c.notNull())
        .addColumn('bucket', 'bigint', (c) => c.notNull())
        .addColumn('event', 'integer', (c) => c.notNull())
        .addColumn('quarter', 'bigint', (c) => c.notNull())
        .addColumn('rejected', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('volume', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('dashboard_series_pkey', [
          'all_hubs',
          'hub_code',
          'span',
          'bucket',
          'event',
          'quarter',
        ])
        .execute();

      await db.schema
        .createTable('dashboard_hubs')
        .addColumn('hub_code', 'text', (c) => c.primaryKey())
        .addColumn('hub_key', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dashboard_hubs_hub_key').on('dashboard_hubs').column('hub_key').execute();

      // The rows already stored (on PostgreSQL inside the migration's own transaction).
      const current = { kysely: db, engine };
      await backfillDerivedColumns(db, engine, ['created_ms', 'submit_ms', 'verify_ms']);
      await rebuildDashboardSummaries(current);
    },
  };
}
