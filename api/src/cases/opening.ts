// Opening cases (docs/cases.md#opening-a-case): the field scans call these in the transaction of
// the scan that flags a device, so a flag never goes without its case, and a case that cannot be
// written rolls the scan back. A later scan of the item adds to the open case's timeline.
// Each scan's cost counts (docs/benchmarks.md#what-opening-cases-costs): an item without an open
// case costs no lookup, and a case's events go in the scan's own insert of events.
import type { CaseReason, CaseSummary } from '@veritas/shared/domain';
import { CASE_REASONS } from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import { recordAudit, type AuditBy } from '../audit/trail';
import { userMayBeAssignedCase } from '../auth/rights';
import type { Database, Db } from '../db/schema';
import { casesEvent, writeEvents, type NewEvent } from '../events/write';
import { caseTarget } from './audit-targets';
import {
  findDueHours,
  findOpenCase,
  findUserForCase,
  insertCase,
  insertCaseEvent,
  summaryOf,
  updateCase,
  type CaseRow,
} from './repository';

/** The field user whose scan it was. */
export interface Scanner {
  id: number;
  username: string;
  role: AuditBy['actor']['role'];
  /** The app's client address, which the case's audit entry names. */
  address?: string | null;
}

/** A scan with an error result: what a case shows of it. */
export interface FlaggingScan {
  trackingId: string;
  reason: CaseReason;
  /** The group code of the hub or return centre whose queue the case goes to. */
  queue: string;
  by: Scanner;
  at: Date;
  model: string | null;
  manufacturer: string | null;
  mac: string | null;
  hardwareId: string | null;
}

/** How long an instance keeps the due hours it read: a super_admin's change reaches every instance within it. */
export const DUE_HOURS_KEPT_MS = 30_000;
const dueHoursRead = new WeakMap<Db, { at: number; hours: Record<string, number> }>();

/** The due hours of a reason, read at most every DUE_HOURS_KEPT_MS (a flagging scan need not read them each time). */
export async function dueHoursOf(trx: Kysely<Database>, db: Db, reason: CaseReason): Promise<number> {
  let read = dueHoursRead.get(db);
  if (!read || Date.now() - read.at > DUE_HOURS_KEPT_MS) {
    read = { at: Date.now(), hours: await findDueHours(trx) };
    dueHoursRead.set(db, read);
  }
  return read.hours[reason] ?? 72;
}

/** Forgets the due hours read: this instance's next case reads them anew (after a change). */
export function forgetDueHours(db: Db): void {
  dueHoursRead.delete(db);
}

/** Whether a scan's result opens a case: E003–E010. */
export const opensCase = (result: string | null): result is CaseReason =>
  result !== null && (CASE_REASONS as readonly string[]).includes(result);

const auditByOfScanner = (by: Scanner): AuditBy => ({
  actor: { kind: 'user', id: String(by.id), name: by.username, role: by.role },
  address: by.address ?? null,
});

/**
 * What a scan wrote of its item's case: the live events that tell it, for the scan to write with its
 * own (one insert), and the case it opened, whose audit entry follows the scan's change
 * (auditCaseOpened). On PostgreSQL both take the events' lock (event-order.ts), held to the commit:
 * writing the case's rows first keeps them out of it.
 */
export interface CaseWritten {
  events: NewEvent[];
  opened: { summary: CaseSummary; by: Scanner } | null;
}

const NOTHING_WRITTEN: CaseWritten = { events: [], opened: null };

/**
 * Opens the item's case, or adds the scan to its open case's timeline: the case's rows, in `trx`,
 * the scan's transaction. `openCaseId` is the item's open case as the scan read it (itemOf), so an
 * item without one costs no lookup. Writes nothing when case opening is off (db.caseOpening, for
 * the benchmarks of its cost).
 */
export async function writeCaseOfScan(
  trx: Kysely<Database>,
  db: Db,
  scan: FlaggingScan,
  openCaseId: number | null,
): Promise<CaseWritten> {
  if (db.caseOpening === false) return NOTHING_WRITTEN;
  const at = scan.at.toISOString();
  const scanned = {
    result: scan.reason,
    model: scan.model,
    manufacturer: scan.manufacturer,
    mac_address: scan.mac,
    hardware_id: scan.hardwareId,
    queue: scan.queue,
  };
  const addScan = async (open: CaseRow): Promise<CaseWritten> => {
    await insertCaseEvent(trx, { case_id: open.id, at, kind: 'scanned', actor_id: scan.by.id, details: scanned });
    return { events: [casesEvent('updated', summaryOf(open))], opened: null };
  };
  const open = openCaseId === null ? undefined : await findOpenCase(trx, scan.trackingId);
  if (open) return addScan(open);
  const hours = await dueHoursOf(trx, db, scan.reason);
  const opened = {
    tracking_id: scan.trackingId,
    reason: scan.reason,
    state: 'open' as const,
    disposition: null,
    queue: scan.queue.toUpperCase(),
    due_at: new Date(scan.at.getTime() + hours * 3_600_000).toISOString(),
    opened_at: at,
    resolved_at: null,
  };
  const id = await insertCase(trx, {
    ...opened,
    assignee_id: null,
    opened_by_id: scan.by.id,
    scanned_model: scan.model,
    scanned_manufacturer: scan.manufacturer,
    scanned_mac: scan.mac,
    scanned_hardware_id: scan.hardwareId,
    updated_at: at,
  });
  if (id === undefined) {
    // Another scan of the item opened its case after this one read the record: on PostgreSQL the
    // read that waited for the record's lock sees its new version, but the cases as they were
    // before it waited. This scan goes on that case's timeline, as a later scan does.
    const other = await findOpenCase(trx, scan.trackingId);
    if (!other) throw new Error(`cases_one_open refused a case of ${scan.trackingId}, which has no open case`);
    return addScan(other);
  }
  await insertCaseEvent(trx, { case_id: id, at, kind: 'opened', actor_id: scan.by.id, details: scanned });
  // What was just written: not read back (a scan's transaction is the field's hot path).
  const summary: CaseSummary = { ...opened, id, assignee: null, version: 1 };
  return { events: [casesEvent('opened', summary)], opened: { summary, by: scan.by } };
}

/** The audit entry of the case a scan opened, its events' lock taken: after the scan's own change. */
export async function auditCaseOpened(trx: Kysely<Database>, db: Db, written: CaseWritten): Promise<void> {
  if (!written.opened) return;
  const { summary, by } = written.opened;
  await recordAudit(trx, db, auditByOfScanner(by), {
    action: 'case.opened',
    outcome: 'success',
    target: caseTarget(summary),
    details: { after: { reason: summary.reason, queue: summary.queue, due_at: summary.due_at } },
  });
}

/** A refused scan's case (E003, E008): its transaction commits the case and nothing else. */
export async function openCaseOfRefusal(
  trx: Kysely<Database>,
  db: Db,
  scan: FlaggingScan,
  openCaseId: number | null,
): Promise<void> {
  const written = await writeCaseOfScan(trx, db, scan, openCaseId);
  await auditCaseOpened(trx, db, written);
  await writeEvents(trx, db, written.events);
}

/**
 * A later step of a flagged item on its open case's timeline (if it has one), before the step's
 * change of the record, which writes the events answered. A passing hub verification does not
 * resolve the case (docs/cases.md#opening-a-case); a detachment moves the case to the return
 * centre's queue, and out of its assignee's hands if they may not work that queue.
 */
export async function writeStepOnCase(
  trx: Kysely<Database>,
  db: Db,
  step: { trackingId: string; kind: 'verified-at-hub' | 'detached'; by: Scanner; at: Date; queue: string | null },
  openCaseId: number | null,
): Promise<NewEvent[]> {
  if (db.caseOpening === false || openCaseId === null) return [];
  const open = await findOpenCase(trx, step.trackingId);
  if (!open) return [];
  const at = step.at.toISOString();
  const queue = step.kind === 'detached' && step.queue ? step.queue.toUpperCase() : open.queue;
  const moved = queue !== open.queue;
  // Moved to a queue its assignee may not work, the case is left in that queue (docs/cases.md#assigning):
  // it would otherwise stay with someone who can no longer open it.
  const assignee = moved && open.assignee && !(await mayWorkQueue(trx, open.assignee, queue)) ? null : open.assignee;
  const unassigned = assignee !== open.assignee;
  await insertCaseEvent(trx, {
    case_id: open.id,
    at,
    kind: step.kind,
    actor_id: step.by.id,
    details: moved
      ? {
          before: { queue: open.queue, ...(unassigned ? { assignee: open.assignee } : {}) },
          after: { queue, ...(unassigned ? { assignee: null } : {}) },
        }
      : null,
  });
  if (moved)
    await updateCase(trx, open.id, open.version, {
      queue,
      ...(unassigned ? { assignee_id: null } : {}),
      updated_at: at,
    });
  return [
    casesEvent('updated', {
      ...summaryOf(open),
      queue,
      assignee: assignee ?? null,
      version: moved ? open.version + 1 : open.version,
    }),
  ];
}

/** Whether the user `username` may still be assigned the cases of `queue`. */
async function mayWorkQueue(trx: Kysely<Database>, username: string, queue: string): Promise<boolean> {
  const user = await findUserForCase(trx, username);
  return !!user && userMayBeAssignedCase(user, queue);
}
