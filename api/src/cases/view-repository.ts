// The saved views' queries (settings.ts).
import type { Role } from '@veritas/shared/domain';
import type { Insertable, Kysely } from 'kysely';
import type { CaseViewsTable, Database } from '../db/schema';

type Executor = Kysely<Database>;

const viewRows = (kysely: Executor) =>
  kysely
    .selectFrom('case_views as v')
    .leftJoin('users as u', 'u.id', 'v.owner_id')
    .select(['v.id', 'v.name', 'v.owner_id', 'u.username', 'v.filters', 'v.shared_role']);

export function findCaseViews(kysely: Executor, ownerId: number, role: Role) {
  return viewRows(kysely)
    .where((eb) => eb.or([eb('v.owner_id', '=', ownerId), eb('v.shared_role', '=', role)]))
    .orderBy('v.name')
    .orderBy('v.id')
    .limit(200)
    .execute();
}

export function findCaseView(kysely: Executor, id: number) {
  return viewRows(kysely).where('v.id', '=', id).executeTakeFirst();
}

/** The new view's id; null when the owner has a view of that name already. */
export async function insertCaseView(kysely: Executor, view: Insertable<CaseViewsTable>): Promise<number | null> {
  const row = await kysely
    .insertInto('case_views')
    .values(view)
    .onConflict((oc) => oc.columns(['owner_id', 'name']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function deleteCaseView(kysely: Executor, id: number): Promise<void> {
  await kysely.deleteFrom('case_views').where('id', '=', id).execute();
}
