// An upload whose ingest failed is 'failed' (src/upload/repository.ts failUpload), not left
// 'processing' with nobody working on it: its result holds the error, its chunks stay until it
// expires, and its final chunk sent again runs it again (docs/csv.md#sending-in-chunks).
// PostgreSQL swaps the status check; SQLite cannot alter a check, so the table (transient rows
// only, nothing refers to it) is built again with the new one.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';

const STATUS_CHECK = sql`status in ('processing', 'done', 'failed')`;
/** Failed before: released with lease 0 for a resent chunk, which no sweep took; now 'failed'. */
const FAILED_BEFORE = sql`update uploads set status = 'failed', lease_until_ms = null, result = '{"status":500,"detail":"Internal server error"}' where status = 'processing' and lease_until_ms = 0`;

export function uploadFailed(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine === 'postgres') {
        await sql`alter table uploads drop constraint uploads_status_check`.execute(db);
        await sql`alter table uploads add constraint uploads_status_check check (${STATUS_CHECK})`.execute(db);
        await FAILED_BEFORE.execute(db);
        return;
      }
      await db.schema
        .createTable('uploads_next')
        .addColumn('upload_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('total_chunks', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(STATUS_CHECK))
        .addColumn('result', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('lease_until_ms', 'bigint')
        .execute();
      await sql`insert into uploads_next select upload_id, user_id, file_name, total_chunks, status, result, created_at, finished_at, lease_until_ms from uploads`.execute(
        db,
      );
      await db.schema.dropTable('uploads').execute();
      await db.schema.alterTable('uploads_next').renameTo('uploads').execute();
      await db.schema.createIndex('uploads_created_at').on('uploads').column('created_at').execute();
      await FAILED_BEFORE.execute(db);
    },
  };
}
