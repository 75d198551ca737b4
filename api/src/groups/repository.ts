// Queries of the groups table (hubs and return centres).
import type { Kysely } from 'kysely';
import type { Organization } from '@veritas/shared/domain';
import type { Database } from '../db/schema';

export interface NewGroup {
  name: string;
  code: string;
  organization: Organization;
}

/** Every group, by organization then code. */
export async function findGroups(kysely: Kysely<Database>) {
  return kysely
    .selectFrom('groups')
    .select(['name', 'code', 'organization'])
    .orderBy('organization')
    .orderBy('code')
    .execute();
}

export async function findGroupByCode(kysely: Kysely<Database>, code: string) {
  return kysely.selectFrom('groups').select(['id', 'organization']).where('code', '=', code).executeTakeFirst();
}

export async function insertGroup(kysely: Kysely<Database>, group: NewGroup): Promise<void> {
  await kysely.insertInto('groups').values(group).execute();
}
