// The remote registry (src/registry/, docs/deploying-a-remote.md): immutable versions of each
// remote with their files, content-addressed blobs, each remote's rollout (live, canary) and its
// history, deploy tokens (src/access-tokens/) and the origins an external build may be served from.
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../schema';
import { addBytesColumn, addIdColumn } from './columns';

export function registry(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      // A file's bytes, once whatever number of versions hold it: keyed by the sha256 of the raw
      // bytes, stored gzip-compressed (most are scripts), served as they are to who accepts gzip.
      await addBytesColumn(
        db.schema.createTable('remote_blobs').addColumn('hash', 'text', (c) => c.primaryKey()),
        'gzip',
        engine,
        (c) => c.notNull(),
      )
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('remote_versions')
        .addColumn('remote', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('manifest_hash', 'text', (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('integrity', 'text', (c) => c.notNull())
        .addColumn('contract', 'text', (c) => c.notNull())
        .addColumn('shared_json', 'text', (c) => c.notNull())
        .addColumn('exposes_json', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('base_url', 'text')
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('published_by', 'text', (c) => c.notNull())
        .addColumn('published_ms', 'bigint', (c) => c.notNull())
        .addColumn('note', 'text')
        .addPrimaryKeyConstraint('remote_versions_pk', ['remote', 'version'])
        // The same build published twice is the same version.
        .addUniqueConstraint('remote_versions_content', ['remote', 'content_hash'])
        .execute();

      await db.schema
        .createTable('remote_version_files')
        .addColumn('remote', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('remote_version_files_pk', ['remote', 'version', 'path'])
        .addForeignKeyConstraint(
          'remote_version_files_version',
          ['remote', 'version'],
          'remote_versions',
          ['remote', 'version'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      // Pruning deletes the blobs no file references.
      await db.schema.createIndex('remote_version_files_hash').on('remote_version_files').column('hash').execute();

      await db.schema
        .createTable('remote_rollouts')
        .addColumn('remote', 'text', (c) => c.primaryKey())
        .addColumn('live', 'integer')
        .addColumn('canary', 'integer')
        .addColumn('canary_percent', 'integer')
        .addColumn('updated_ms', 'bigint', (c) => c.notNull())
        .execute();

      await addIdColumn(db.schema.createTable('rollout_changes'), engine)
        .addColumn('remote', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('from_version', 'integer')
        .addColumn('to_version', 'integer')
        .addColumn('percent', 'integer')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rollout_changes_remote').on('rollout_changes').columns(['remote', 'id']).execute();

      await addIdColumn(db.schema.createTable('access_tokens'), engine)
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('expires_ms', 'bigint', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .addColumn('revoked_ms', 'bigint')
        .addColumn('last_used_ms', 'bigint')
        .execute();

      await db.schema
        .createTable('allowed_origins')
        .addColumn('origin', 'text', (c) => c.primaryKey())
        .addColumn('added_by', 'text', (c) => c.notNull())
        .addColumn('added_ms', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
