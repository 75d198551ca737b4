// What users keep about cases: the due time of each reason (a super_admin's), and saved views of
// the queue, a user's own or shared with a role, stored on the server (docs/cases.md#saved-views).
import { CASE_REASONS, type CaseFilters, type CaseView, type NewCaseView, type Role } from '@veritas/shared/domain';
import { recordAudit } from '../audit/trail';
import type { Db } from '../db/schema';
import { BadRequest, Conflict, Forbidden, NotFound } from '../http-errors';
import type { CaseActor, UserCaseActor } from './cases';
import { forgetDueHours } from './opening';
import { findDueHours, updateDueHours } from './repository';
import { deleteCaseView, findCaseView, findCaseViews, insertCaseView } from './view-repository';

export function dueTimes(db: Db): Promise<Record<string, number>> {
  return findDueHours(db.kysely);
}

/**
 * Sets the hours of the reasons given; others keep theirs. New cases are due by them; open cases
 * keep their due time. Recorded in the audit trail when a due time changes.
 */
export async function setDueTimes(
  db: Db,
  actor: CaseActor,
  hours: Record<string, number>,
): Promise<Record<string, number>> {
  const unknown = Object.keys(hours).find((reason) => !(CASE_REASONS as readonly string[]).includes(reason));
  if (unknown !== undefined)
    throw new BadRequest('due_hours', `${unknown} is not a reason a case is opened for (E003–E010).`);
  return db.transaction(async (trx) => {
    const before = await findDueHours(trx);
    await updateDueHours(trx, hours);
    const after = await findDueHours(trx);
    // A save that changes no due time (none given, or each as it was) is no change to record.
    if (CASE_REASONS.every((reason) => before[reason] === after[reason])) return after;
    forgetDueHours(db);
    await recordAudit(trx, db, actor.by, {
      action: 'case.due-times-changed',
      outcome: 'success',
      target: null,
      details: { before, after },
    });
    return after;
  });
}

const viewOf = (row: {
  id: number;
  name: string;
  username: string | null;
  filters: string;
  shared_role: Role | null;
}): CaseView => ({
  id: row.id,
  name: row.name,
  owner: row.username ?? '',
  filters: JSON.parse(row.filters) as CaseFilters,
  shared_with: row.shared_role,
});

/** The viewer's own views and those shared with its role, by name. */
export async function caseViews(db: Db, viewer: { id: number; role: Role }): Promise<CaseView[]> {
  return (await findCaseViews(db.kysely, viewer.id, viewer.role)).map(viewOf);
}

export async function saveCaseView(db: Db, actor: UserCaseActor, view: NewCaseView): Promise<CaseView> {
  // Only the filters' own fields are kept: what the queue reads.
  const filters = Object.fromEntries(
    Object.entries(view.filters).filter(([, value]) => value !== '' && value !== undefined),
  );
  return db.transaction(async (trx) => {
    const id = await insertCaseView(trx, {
      owner_id: actor.id,
      name: view.name,
      filters: JSON.stringify(filters),
      shared_role: view.shared_with,
      created_at: new Date().toISOString(),
    });
    if (id === null) throw new Conflict(`You already have a view named ${view.name}.`);
    await recordAudit(trx, db, actor.by, {
      action: 'case.view-saved',
      outcome: 'success',
      target: { kind: 'case-view', id: String(id), label: view.name },
      details: { after: { filters, shared_with: view.shared_with } },
    });
    return viewOf((await findCaseView(trx, id))!);
  });
}

/** A view is deleted by its owner only. */
export async function deleteView(db: Db, actor: CaseActor, id: number): Promise<string> {
  return db.transaction(async (trx) => {
    const row = await findCaseView(trx, id);
    if (!row || (row.owner_id !== actor.id && row.shared_role !== actor.role))
      throw new NotFound(`View ${id} not found.`);
    if (row.owner_id !== actor.id) throw new Forbidden('Only its owner deletes a view.');
    await deleteCaseView(trx, id);
    await recordAudit(trx, db, actor.by, {
      action: 'case.view-deleted',
      outcome: 'success',
      target: { kind: 'case-view', id: String(id), label: row.name },
      details: {
        before: { filters: JSON.parse(row.filters) as CaseFilters, shared_with: row.shared_role },
        after: null,
      },
    });
    return row.name;
  });
}
