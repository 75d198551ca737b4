// A case's timeline names who acted (docs/integrations.md#the-api): a user by its id, an actor that
// is no user (an API key) by its name, `token "<label>"`, kept here.
import type { Kysely, Migration } from 'kysely';

export function caseEventActorName(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('case_events').addColumn('actor_name', 'text').execute();
    },
  };
}
