// Groups, users, sessions, login failures and device records.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';
import { addIdColumn } from './columns';

export function initial(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await addIdColumn(db.schema.createTable('groups'), engine)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('organization', 'text', (c) => c.notNull().check(sql`organization in ('hub', 'RC')`))
        .execute();

      await addIdColumn(db.schema.createTable('users'), engine)
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('group_id', 'integer', (c) => c.references('groups.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('auth_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('auth_tokens_session_id').on('auth_tokens').column('session_id').execute();
      await db.schema.createIndex('auth_tokens_expires_at').on('auth_tokens').column('expires_at').execute();

      await addIdColumn(db.schema.createTable('login_failures'), engine)
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('failed_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_failures_username_failed_at')
        .on('login_failures')
        .columns(['username', 'failed_at'])
        .execute();

      await addIdColumn(db.schema.createTable('device_records'), engine)
        .addColumn('tracking_id', 'text', (c) => c.notNull().unique())
        .addColumn('hub_code', 'text')
        .addColumn('created_date', 'text')
        .addColumn('device_type', 'text')
        .addColumn('is_blindpick', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('blind_brand', 'text')
        .addColumn('blind_model', 'text')
        .addColumn('device_model_name', 'text')
        .addColumn('device_brand', 'text')
        .addColumn('is_submit', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('submit_time', 'text')
        .addColumn('submitted_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('submitted_device_name', 'text')
        .addColumn('submitted_manufacturer', 'text')
        .addColumn('device_result', 'text')
        .addColumn('is_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('verify_time', 'text')
        .addColumn('verified_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('is_verified_rc', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('verified_by_rc_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('verify_time_rc', 'text')
        .addColumn('is_verified_rc_by', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // Newest-first listing and date-range paging (reports) walk (created_date, id).
      await db.schema
        .createIndex('device_records_created_date_id')
        .on('device_records')
        .columns(['created_date', 'id'])
        .execute();
      await db.schema.createIndex('device_records_hub_code').on('device_records').column('hub_code').execute();
    },
  };
}
