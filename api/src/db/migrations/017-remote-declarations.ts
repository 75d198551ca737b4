// What a remote adds to the console is published with each version (its remote.json,
// docs/deploying-a-remote.md#the-declaration): kept with the version, so that promoting it checks
// it again and the composition reads it without the version's files. Versions published before
// have none (null): they add nothing and cannot be made live again. A rollout change may now be a
// `retire` too; `action` is plain text, checked by the code that writes it, so nothing else changes.
import type { Kysely, Migration } from 'kysely';

export function remoteDeclarations(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('remote_versions').addColumn('declaration_json', 'text').execute();
    },
  };
}
