// Chunked shipment-CSV uploads (docs/csv.md#sending-in-chunks): the chunks received so far, kept in
// the database so any server instance can take the next one, and each completed upload's result.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../schema';
import { addBytesColumn } from './columns';

export function uploads(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await addBytesColumn(
        db.schema
          .createTable('upload_chunks')
          .addColumn('upload_id', 'text', (c) => c.notNull())
          .addColumn('chunk_index', 'integer', (c) => c.notNull())
          .addColumn('total_chunks', 'integer', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('file_name', 'text', (c) => c.notNull()),
        'data',
        engine,
        (c) => c.notNull(),
      )
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('upload_chunks_pk', ['upload_id', 'chunk_index'])
        .execute();
      // Expiry deletes by age.
      await db.schema.createIndex('upload_chunks_received_at').on('upload_chunks').column('received_at').execute();

      await db.schema
        .createTable('uploads')
        .addColumn('upload_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('total_chunks', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('processing', 'done')`))
        .addColumn('result', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('uploads_created_at').on('uploads').column('created_at').execute();
    },
  };
}
