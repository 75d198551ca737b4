// How the audit trail names a case and a saved view (docs/cases.md#audit): a case by its tracking
// ID and reason, a view by its name. A refusal of a call whose path names one by id names it the
// same way (targetOfPathParam, docs/audit.md#refusals).
import { targetOfPathParam } from '../audit/refusals';
import type { Db } from '../db/schema';

export const caseTarget = (row: { id: number; tracking_id: string; reason: string }) =>
  ({ kind: 'case', id: String(row.id), label: `${row.tracking_id} (${row.reason})` }) as const;

/** The label of case `id`, if there is one. */
export async function caseLabel(id: number, db: Db): Promise<string | undefined> {
  const row = await db.kysely
    .selectFrom('cases')
    .select(['id', 'tracking_id', 'reason'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && caseTarget(row).label;
}

/** The name of saved view `id`, if there is one. */
export async function viewLabel(id: number, db: Db): Promise<string | undefined> {
  return (await db.kysely.selectFrom('case_views').select('name').where('id', '=', id).executeTakeFirst())?.name;
}

/** The target of a refused call on the case its path names by `:id`. */
export const caseInPath = targetOfPathParam('case', 'id', caseLabel);
