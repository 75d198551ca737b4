// Cases (src/cases/, docs/cases.md): a flagged device's case, its timeline and photos, the due
// time of each reason, saved views of the queue and bulk jobs.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';
import { addBytesColumn, addIdColumn } from './columns';

/** Hours from opening to due, per reason, until a super_admin changes them (docs/cases.md#due-times). */
export const DEFAULT_DUE_HOURS: Readonly<Record<string, number>> = {
  E003: 48,
  E004: 48,
  E005: 24,
  E006: 72,
  E007: 72,
  E008: 24,
  E009: 72,
  E010: 72,
};

export function cases(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await addIdColumn(db.schema.createTable('cases'), engine)
        .addColumn('tracking_id', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('disposition', 'text')
        // The group code of the hub or return centre, in capitals.
        .addColumn('queue', 'text', (c) => c.notNull())
        .addColumn('assignee_id', 'integer')
        .addColumn('due_at', 'text', (c) => c.notNull())
        .addColumn('opened_at', 'text', (c) => c.notNull())
        .addColumn('opened_by_id', 'integer')
        .addColumn('scanned_model', 'text')
        .addColumn('scanned_manufacturer', 'text')
        .addColumn('scanned_mac', 'text')
        .addColumn('scanned_hardware_id', 'text')
        .addColumn('resolved_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      // One case per tracking ID is open at a time (not resolved): the database holds the rule,
      // so two scans at once cannot open two.
      await sql`create unique index cases_one_open on cases (tracking_id) where state <> 'resolved'`.execute(db);
      // The queue's order is due time, then id; each filter has its index in that order, so a
      // page is one index range whatever the filter (docs/cases.md#scale).
      await db.schema.createIndex('cases_due').on('cases').columns(['due_at', 'id']).execute();
      for (const column of ['state', 'queue', 'assignee_id', 'reason']) {
        await db.schema.createIndex(`cases_${column}_due`).on('cases').columns([column, 'due_at', 'id']).execute();
      }
      await db.schema.createIndex('cases_tracking').on('cases').columns(['tracking_id', 'id']).execute();
      await db.schema.createIndex('cases_opened').on('cases').columns(['opened_at']).execute();

      await addIdColumn(db.schema.createTable('case_events'), engine)
        .addColumn('case_id', 'integer', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'integer')
        .addColumn('note', 'text')
        .addColumn('details', 'text')
        .execute();
      await db.schema.createIndex('case_events_case').on('case_events').columns(['case_id', 'id']).execute();

      // Photos are stored in the database, so every instance of a fleet serves them.
      await addBytesColumn(addIdColumn(db.schema.createTable('case_photos'), engine), 'bytes', engine, (c) =>
        c.notNull(),
      )
        .addColumn('case_id', 'integer', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('added_by_id', 'integer')
        .addColumn('added_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('case_photos_case').on('case_photos').columns(['case_id', 'id']).execute();

      await db.schema
        .createTable('case_due_times')
        .addColumn('reason', 'text', (c) => c.primaryKey())
        .addColumn('hours', 'integer', (c) => c.notNull())
        .execute();
      await db
        .insertInto('case_due_times')
        .values(Object.entries(DEFAULT_DUE_HOURS).map(([reason, hours]) => ({ reason, hours })))
        .execute();

      await addIdColumn(db.schema.createTable('case_views'), engine)
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('filters', 'text', (c) => c.notNull())
        .addColumn('shared_role', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('case_views_owner_name', ['owner_id', 'name'])
        .execute();
      await db.schema.createIndex('case_views_shared').on('case_views').columns(['shared_role']).execute();

      // A bulk job and its cases: each item is marked done in the transaction that changes its
      // case, so a job resumed after a restart never changes a case twice.
      await addIdColumn(db.schema.createTable('case_jobs'), engine)
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('created_by_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until_ms', 'bigint')
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema
        .createTable('case_job_items')
        .addColumn('job_id', 'integer', (c) => c.notNull())
        .addColumn('case_id', 'integer', (c) => c.notNull())
        // null: to do; 'changed' or 'skipped' once done.
        .addColumn('outcome', 'text')
        .addPrimaryKeyConstraint('case_job_items_pk', ['job_id', 'case_id'])
        .execute();
    },
  };
}
