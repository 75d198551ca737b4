// Shipments sent through the order systems' API (docs/integrations.md#shipments-in) are uploads of
// an API key, not of a user: an upload and its chunks name either a user (`user_id`, the console's)
// or a key (`token_id`), never both, and a key's upload keeps the SHA-256 of its body (`body_hash`),
// which a call repeating its Idempotency-Key is compared with. PostgreSQL alters the tables; SQLite
// cannot drop a NOT NULL, so both tables (transient rows only, nothing refers to them) are built
// again as migration 016 did.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';
import { addBytesColumn } from './columns';

const ONE_OWNER = sql`(user_id is null) <> (token_id is null)`;
const STATUS_CHECK = sql`status in ('processing', 'done', 'failed')`;

export function keyUploads(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      if (engine === 'postgres') {
        for (const table of ['uploads', 'upload_chunks']) {
          await db.schema
            .alterTable(table)
            .alterColumn('user_id', (c) => c.dropNotNull())
            .execute();
          await db.schema
            .alterTable(table)
            .addColumn('token_id', 'integer', (c) => c.references('access_tokens.id').onDelete('cascade'))
            .execute();
          await db.schema.alterTable(table).addCheckConstraint(`${table}_owner_check`, ONE_OWNER).execute();
        }
        await db.schema.alterTable('uploads').addColumn('body_hash', 'text').execute();
        return;
      }

      await addBytesColumn(
        db.schema
          .createTable('upload_chunks_next')
          .addColumn('upload_id', 'text', (c) => c.notNull())
          .addColumn('chunk_index', 'integer', (c) => c.notNull())
          .addColumn('total_chunks', 'integer', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
          .addColumn('file_name', 'text', (c) => c.notNull()),
        'data',
        engine,
        (c) => c.notNull(),
      )
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addColumn('token_id', 'integer', (c) => c.references('access_tokens.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('upload_chunks_pk', ['upload_id', 'chunk_index'])
        .addCheckConstraint('upload_chunks_owner_check', ONE_OWNER)
        .execute();
      await sql`insert into upload_chunks_next (upload_id, chunk_index, total_chunks, user_id, file_name, data, received_at)
        select upload_id, chunk_index, total_chunks, user_id, file_name, data, received_at from upload_chunks`.execute(
        db,
      );
      await db.schema.dropTable('upload_chunks').execute();
      await db.schema.alterTable('upload_chunks_next').renameTo('upload_chunks').execute();
      await db.schema.createIndex('upload_chunks_received_at').on('upload_chunks').column('received_at').execute();

      await db.schema
        .createTable('uploads_next')
        .addColumn('upload_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('total_chunks', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(STATUS_CHECK))
        .addColumn('result', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('lease_until_ms', 'bigint')
        .addColumn('token_id', 'integer', (c) => c.references('access_tokens.id').onDelete('cascade'))
        .addColumn('body_hash', 'text')
        .addCheckConstraint('uploads_owner_check', ONE_OWNER)
        .execute();
      await sql`insert into uploads_next (upload_id, user_id, file_name, total_chunks, status, result, created_at, finished_at, lease_until_ms)
        select upload_id, user_id, file_name, total_chunks, status, result, created_at, finished_at, lease_until_ms from uploads`.execute(
        db,
      );
      await db.schema.dropTable('uploads').execute();
      await db.schema.alterTable('uploads_next').renameTo('uploads').execute();
      await db.schema.createIndex('uploads_created_at').on('uploads').column('created_at').execute();
    },
  };
}
