// How the audit trail names a case and a saved view (docs/cases.md#audit): a case by its tracking
// ID and reason, a view by its name. A refusal of a call whose path names one by id names it the
// same way, or `#{id}` when the id names nothing (docs/audit.md#refusals).
import { serialIdOf, type Db } from '../db/schema';

export const caseTarget = (row: { id: number; tracking_id: string; reason: string }) =>
  ({ kind: 'case', id: String(row.id), label: `${row.tracking_id} (${row.reason})` }) as const;

/** The label of the case `id` names, read for a refusal's entry. */
export async function caseLabel(id: string, db: Db): Promise<string> {
  const serial = serialIdOf(id);
  const row =
    serial === null
      ? undefined
      : await db.kysely
          .selectFrom('cases')
          .select(['id', 'tracking_id', 'reason'])
          .where('id', '=', serial)
          .executeTakeFirst();
  return row ? caseTarget(row).label : `#${id}`;
}

/** The name of the saved view `id` names, read for a refusal's entry. */
export async function viewLabel(id: string, db: Db): Promise<string> {
  const serial = serialIdOf(id);
  const row =
    serial === null
      ? undefined
      : await db.kysely.selectFrom('case_views').select('name').where('id', '=', serial).executeTakeFirst();
  return row?.name ?? `#${id}`;
}
