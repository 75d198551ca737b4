// Working a case (docs/cases.md#working-a-case): reading it, assigning it, its review, its
// resolution with a disposition and a note, reopening, notes. Every change names the version it
// was made on: a case changed since answers 409 with the case as it now is. Each change writes its
// timeline entry, its audit entry and its live event in its own transaction.
import type {
  CaseDetail,
  CaseDisposition,
  CaseEvent,
  CaseEventKind,
  CaseSummary,
  DeviceRecord,
} from '@veritas/shared/domain';
import {
  CASE_CHANGED_MESSAGE,
  canCommentCase,
  canReadCase,
  canWorkCase,
  type CaseViewer,
} from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import { actorLabel, recordAudit, type AuditBy } from '../audit/trail';
import { caseTarget } from './audit-targets';
import { dueHoursOf } from './opening';
import { userMayBeAssignedCase } from '../auth/rights';
import type { Database, Db } from '../db/schema';
import { recordJsonOf } from '../devices/record-json';
import { casesEvent, writeEvents } from '../events/write';
import { BadRequest, Conflict, Forbidden, NotFound } from '../http-errors';
import {
  findCase,
  findCaseEvents,
  findCasePhotos,
  findCaseScan,
  findRecordId,
  findUserForCase,
  insertCaseEvent,
  summaryOf,
  updateCase,
  type CaseRow,
} from './repository';

/**
 * Who works a case: the signed-in user (or, id null, an API key: docs/integrations.md#the-api), its
 * rights' facts, and how the audit trail names it.
 */
export interface CaseActor extends CaseViewer {
  id: number | null;
  username: string;
  by: AuditBy;
}
/** A signed-in user working cases: what a bulk job is created by. */
export type UserCaseActor = CaseActor & { id: number };

async function readableCase(kysely: Kysely<Database>, viewer: CaseViewer, id: number): Promise<CaseRow> {
  const row = await findCase(kysely, id);
  if (!row || !canReadCase(viewer, row.queue)) throw new NotFound(`Case ${id} not found.`);
  return row;
}

/** The case with its flagging scan, record, timeline and photos, and what the viewer may do. */
export async function caseDetail(db: Db, viewer: CaseViewer, id: number): Promise<CaseDetail> {
  const row = await readableCase(db.kysely, viewer, id);
  const [scan, timeline, photos, records] = await Promise.all([
    findCaseScan(db.kysely, id),
    findCaseEvents(db.kysely, id),
    findCasePhotos(db.kysely, id),
    recordJsonOfTracking(db, row.tracking_id),
  ]);
  return {
    case: summaryOf(row),
    scan: {
      by: scan.username ?? null,
      at: scan.opened_at,
      model: scan.scanned_model,
      manufacturer: scan.scanned_manufacturer,
      mac_address: scan.scanned_mac,
      hardware_id: scan.scanned_hardware_id,
    },
    record: records,
    timeline,
    photos,
    rights: { work: canWorkCase(viewer, row.queue), comment: canCommentCase(viewer, row.queue) },
  };
}

async function recordJsonOfTracking(db: Db, trackingId: string): Promise<DeviceRecord | null> {
  const id = await findRecordId(db.kysely, trackingId);
  if (id === undefined) return null;
  const [json] = await recordJsonOf(db, [id]);
  return json ? (JSON.parse(json) as DeviceRecord) : null;
}

/** 409 with the case as it now is: someone changed it since `version`, or its state does not allow the change. */
function conflict(message: string, row: CaseRow): Conflict {
  return new Conflict(message, { case: summaryOf(row) });
}

interface Change {
  /** The case's columns after the change. */
  set: Parameters<typeof updateCase>[3];
  kind: CaseEventKind;
  note?: string | null;
  details?: object | null;
  audit: { action: Parameters<typeof recordAudit>[3]['action']; before: object; after: object };
  event: Parameters<typeof casesEvent>[0];
}

/**
 * Applies `decide(row)` to case `id` made on `version`, in `trx`: the update (refused when the
 * version moved), its timeline entry, audit entry and event. `decide` throws the refusals.
 */
export async function changeCaseIn(
  trx: Kysely<Database>,
  db: Db,
  actor: CaseActor,
  id: number,
  /** The version the change was made on; 'current': whatever it now is (a bulk job's). */
  version: number | 'current',
  decide: (row: CaseRow, at: string) => Promise<Change> | Change,
): Promise<CaseSummary> {
  const row = await readableCase(trx, actor, id);
  if (!canWorkCase(actor, row.queue)) throw new Forbidden('Your role cannot work the cases of this queue.');
  if (version !== 'current' && row.version !== version) throw conflict(CASE_CHANGED_MESSAGE, row);
  const at = new Date().toISOString();
  const change = await decide(row, at);
  if (!(await updateCase(trx, id, row.version, { ...change.set, updated_at: at })))
    throw conflict(CASE_CHANGED_MESSAGE, (await findCase(trx, id))!);
  await insertCaseEvent(trx, {
    case_id: id,
    at,
    kind: change.kind,
    actor_id: actor.id,
    actor_name: actor.id === null ? actorLabel(actor.by) : null,
    note: change.note ?? null,
    details: change.details ?? null,
  });
  const summary = summaryOf((await findCase(trx, id))!);
  await recordAudit(trx, db, actor.by, {
    action: change.audit.action,
    outcome: 'success',
    target: caseTarget(row),
    details: { before: change.audit.before, after: change.audit.after },
  });
  await writeEvents(trx, db, [casesEvent(change.event, summary)]);
  return summary;
}

/** The id of the user `assignee` names, who may work the cases of `queue`; else 400 saying why not. */
export async function eligibleAssignee(kysely: Kysely<Database>, assignee: string, queue: string): Promise<number> {
  const user = await findUserForCase(kysely, assignee);
  if (!user || user.is_active !== 1) throw new BadRequest('assignee', `User ${assignee} not found.`);
  if (!userMayBeAssignedCase(user, queue))
    throw new BadRequest('assignee', `User ${assignee} cannot work the cases of queue ${queue}.`);
  return user.id;
}

/** The assignment of a case to `assignee` (a username) or back to its queue (null). */
export async function assignmentOf(kysely: Kysely<Database>, row: CaseRow, assignee: string | null): Promise<Change> {
  const assigneeId = assignee === null ? null : await eligibleAssignee(kysely, assignee, row.queue);
  if (assigneeId === row.assignee_id)
    throw conflict(`The case is already ${assignee ? `assigned to ${assignee}` : 'unassigned'}.`, row);
  if (row.state === 'resolved') throw conflict('A resolved case is not assigned: reopen it first.', row);
  return {
    set: { assignee_id: assigneeId },
    kind: 'assigned',
    details: { before: { assignee: row.assignee ?? null }, after: { assignee } },
    audit: { action: 'case.assigned', before: { assignee: row.assignee ?? null }, after: { assignee } },
    event: 'assigned',
  };
}

export function assignCase(db: Db, actor: CaseActor, id: number, assignee: string | null, version: number) {
  return db.transaction((trx) => changeCaseIn(trx, db, actor, id, version, (row) => assignmentOf(trx, row, assignee)));
}

export function startReview(db: Db, actor: CaseActor, id: number, version: number) {
  return db.transaction((trx) =>
    changeCaseIn(trx, db, actor, id, version, (row) => {
      if (row.state !== 'open')
        throw conflict(`Only an open case goes into review; this one is ${row.state.replace('_', ' ')}.`, row);
      return {
        set: { state: 'in_review' },
        kind: 'review-started',
        audit: { action: 'case.review-started', before: { state: row.state }, after: { state: 'in_review' } },
        event: 'updated',
      };
    }),
  );
}

/** The resolution of a case with its disposition and note (open or in review). */
export function resolutionOf(row: CaseRow, disposition: CaseDisposition, note: string, at: string): Change {
  if (row.state === 'resolved') throw conflict('The case is already resolved.', row);
  return {
    set: { state: 'resolved', disposition, resolved_at: at },
    kind: 'resolved',
    note,
    details: { disposition },
    audit: { action: 'case.resolved', before: { state: row.state }, after: { state: 'resolved', disposition } },
    event: 'resolved',
  };
}

export function resolveCase(
  db: Db,
  actor: CaseActor,
  id: number,
  change: { disposition: CaseDisposition; note: string; version: number },
) {
  return db.transaction((trx) =>
    changeCaseIn(trx, db, actor, id, change.version, (row, at) =>
      resolutionOf(row, change.disposition, change.note, at),
    ),
  );
}

/** A resolved case opens again, due anew from now (docs/cases.md#working-a-case). */
export function reopenCase(db: Db, actor: CaseActor, id: number, reason: string, version: number) {
  return db.transaction((trx) =>
    changeCaseIn(trx, db, actor, id, version, async (row, at) => {
      if (row.state !== 'resolved') throw conflict('Only a resolved case can be reopened.', row);
      const hours = await dueHoursOf(trx, db, row.reason);
      const due = new Date(Date.parse(at) + hours * 3_600_000).toISOString();
      return {
        set: { state: 'open', disposition: null, resolved_at: null, due_at: due },
        kind: 'reopened',
        note: reason,
        details: { before: { disposition: row.disposition } },
        audit: {
          action: 'case.reopened',
          before: { state: 'resolved', disposition: row.disposition },
          after: { state: 'open', due_at: due },
        },
        event: 'reopened',
      };
    }),
  );
}

/** A note on the case's timeline: whoever may comment (no version: a note overwrites nothing). */
export async function addCaseNote(db: Db, actor: CaseActor, id: number, note: string): Promise<CaseEvent> {
  return db.transaction(async (trx) => {
    const row = await readableCase(trx, actor, id);
    if (!canCommentCase(actor, row.queue)) throw new Forbidden('Your role cannot comment on the cases of this queue.');
    const at = new Date().toISOString();
    await insertCaseEvent(trx, { case_id: id, at, kind: 'note', actor_id: actor.id, note });
    const events = await findCaseEvents(trx, id);
    await recordAudit(trx, db, actor.by, {
      action: 'case.noted',
      outcome: 'success',
      target: caseTarget(row),
      details: { after: { note_length: note.length } },
    });
    await writeEvents(trx, db, [casesEvent('updated', summaryOf(row))]);
    return events[events.length - 1]!;
  });
}
