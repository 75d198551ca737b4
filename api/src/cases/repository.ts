// The cases' queries (docs/cases.md): typed Kysely over the tables of migration 018, taking the
// database or a transaction first.
import {
  ROLES,
  worksAllCases,
  worksCases,
  type CaseEvent,
  type CaseEventKind,
  type CaseFilters,
  type CasePhoto,
  type CaseSummary,
  type CaseViewer,
} from '@veritas/shared/domain';
import { sql, type Insertable, type Kysely, type SelectQueryBuilder, type Updateable } from 'kysely';
import type { CasesTable, Database } from '../db/schema';

type Executor = Kysely<Database>;

/** A case with its assignee's username: what a summary is made of. */
export function caseRows(kysely: Executor) {
  return kysely
    .selectFrom('cases as c')
    .leftJoin('users as a', 'a.id', 'c.assignee_id')
    .select([
      'c.id',
      'c.tracking_id',
      'c.reason',
      'c.state',
      'c.disposition',
      'c.queue',
      'c.assignee_id',
      'a.username as assignee',
      'c.due_at',
      'c.opened_at',
      'c.resolved_at',
      'c.version',
    ]);
}
export type CaseRow = Awaited<ReturnType<ReturnType<typeof caseRows>['executeTakeFirstOrThrow']>>;

export const summaryOf = (row: CaseRow): CaseSummary => ({
  id: row.id,
  tracking_id: row.tracking_id,
  reason: row.reason,
  state: row.state,
  disposition: row.disposition,
  queue: row.queue,
  assignee: row.assignee ?? null,
  due_at: row.due_at,
  opened_at: row.opened_at,
  resolved_at: row.resolved_at,
  version: row.version,
});

export async function findCase(kysely: Executor, id: number): Promise<CaseRow | undefined> {
  return caseRows(kysely).where('c.id', '=', id).executeTakeFirst();
}

/** The open (not resolved) case of a tracking ID, if any: there is at most one. */
export async function findOpenCase(kysely: Executor, trackingId: string): Promise<CaseRow | undefined> {
  return caseRows(kysely)
    .where('c.tracking_id', '=', trackingId)
    .where('c.state', '<>', sql.lit('resolved'))
    .executeTakeFirst();
}

/**
 * The id of the open case of the device record read beside it, or null: a subquery for a select
 * from device_records. Raw, with 'resolved' a literal: SQLite then reads the index of open cases
 * (cases_one_open, whose condition a parameter does not match) and Kysely builds nothing, so a
 * field scan reads it at no measurable cost.
 */
export const openCaseIdOfRecord = sql<
  number | string | null
>`(select cases.id from cases where cases.tracking_id = device_records.tracking_id and cases.state <> 'resolved')`;

/** The cases of a tracking ID, newest first. */
export async function findCasesOf(kysely: Executor, trackingId: string): Promise<CaseRow[]> {
  return caseRows(kysely).where('c.tracking_id', '=', trackingId).orderBy('c.id', 'desc').limit(20).execute();
}

/** Opens a case: its id, or undefined when its tracking ID has an open case already (cases_one_open). */
export async function insertCase(kysely: Executor, values: Insertable<CasesTable>): Promise<number | undefined> {
  const row = await kysely
    .insertInto('cases')
    .values(values)
    // No target: cases_one_open is a partial index, which a column list does not name.
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Changes a case made on `version`; false when it has changed since (or is gone). */
export async function updateCase(
  kysely: Executor,
  id: number,
  version: number,
  change: Updateable<CasesTable>,
): Promise<boolean> {
  const result = await kysely
    .updateTable('cases')
    .set({ ...change, version: version + 1 })
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertCaseEvent(
  kysely: Executor,
  event: {
    case_id: number;
    at: string;
    kind: CaseEventKind;
    actor_id: number | null;
    actor_name?: string | null;
    note?: string | null;
    details?: object | null;
  },
): Promise<void> {
  await kysely
    .insertInto('case_events')
    .values({ ...event, note: event.note ?? null, details: event.details ? JSON.stringify(event.details) : null })
    .execute();
}

export async function findCaseEvents(kysely: Executor, caseId: number): Promise<CaseEvent[]> {
  const rows = await kysely
    .selectFrom('case_events as e')
    .leftJoin('users as u', 'u.id', 'e.actor_id')
    .select(['e.id', 'e.at', 'e.kind', 'u.username', 'e.actor_name', 'e.note', 'e.details'])
    .where('e.case_id', '=', caseId)
    .orderBy('e.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    at: row.at,
    kind: row.kind,
    by: row.username ?? row.actor_name ?? null,
    note: row.note,
    details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
  }));
}

/** The flagging scan's facts, as stored on the case. */
export async function findCaseScan(kysely: Executor, id: number) {
  return kysely
    .selectFrom('cases as c')
    .leftJoin('users as u', 'u.id', 'c.opened_by_id')
    .select([
      'u.username',
      'c.opened_at',
      'c.scanned_model',
      'c.scanned_manufacturer',
      'c.scanned_mac',
      'c.scanned_hardware_id',
    ])
    .where('c.id', '=', id)
    .executeTakeFirstOrThrow();
}

export async function findDueHours(kysely: Executor): Promise<Record<string, number>> {
  const rows = await kysely.selectFrom('case_due_times').select(['reason', 'hours']).orderBy('reason').execute();
  return Object.fromEntries(rows.map((row) => [row.reason, row.hours]));
}

export async function updateDueHours(kysely: Executor, hours: Record<string, number>): Promise<void> {
  for (const [reason, value] of Object.entries(hours)) {
    await kysely.updateTable('case_due_times').set({ hours: value }).where('reason', '=', reason).execute();
  }
}

/** The id of a user by username (active or not); undefined when there is none. */
export async function findUserForCase(kysely: Executor, username: string) {
  return kysely
    .selectFrom('users as u')
    .leftJoin('groups as g', 'g.id', 'u.group_id')
    .select(['u.id', 'u.username', 'u.role', 'u.is_active', 'g.code'])
    .where('u.username', '=', username)
    .executeTakeFirst();
}

const CASE_WORKER_ROLES = ROLES.filter(worksCases);

/** The active users of the roles that work cases, with their groups. */
export async function findCaseWorkers(kysely: Executor) {
  return kysely
    .selectFrom('users as u')
    .leftJoin('groups as g', 'g.id', 'u.group_id')
    .select(['u.username', 'u.role', 'g.code'])
    .where('u.is_active', '=', 1)
    .where('u.role', 'in', CASE_WORKER_ROLES)
    .orderBy('u.username')
    .execute();
}

/**
 * The last instant of `day` (YYYY-MM-DD, UTC) as `opened_at` writes instants (toISOString, to the
 * millisecond). Not the next day's start: after 9999-12-31 it is written +010000-01-01, which sorts
 * before every instant.
 */
const endOfDay = (day: string) => `${day}T23:59:59.999Z`;

/** The filters, with `assignee` as an id: `me` is the viewer, a username its id (0: no such user). */
export type CaseSelection = Omit<CaseFilters, 'assignee'> & { assignee?: number | 'none' };

/**
 * The filters and the viewer's scope on a query of `cases`: incharge and executive see their
 * group's queue only (docs/screens.md#cases-rights).
 */
export function whereCases<O>(
  query: SelectQueryBuilder<Database, 'cases', O>,
  filters: CaseSelection,
  viewer: CaseViewer,
  now: string,
): SelectQueryBuilder<Database, 'cases', O> {
  let q = query;
  if (!worksAllCases(viewer.role)) q = q.where('cases.queue', '=', (viewer.groupCode ?? '').toUpperCase());
  const state = filters.state || 'active';
  // Literals, written as the predicate of the active cases' indexes (migration 019): a bound
  // parameter would keep SQLite from using them.
  if (state === 'active') q = q.where(sql<boolean>`cases.state in ('open', 'in_review')`);
  else if (state !== 'all') q = q.where('cases.state', '=', state);
  if (filters.reason) q = q.where('cases.reason', '=', filters.reason);
  if (filters.queue) q = q.where('cases.queue', '=', filters.queue.toUpperCase());
  if (filters.assignee === 'none') q = q.where('cases.assignee_id', 'is', null);
  else if (filters.assignee !== undefined) q = q.where('cases.assignee_id', '=', filters.assignee);
  if (filters.overdue === '1') q = q.where('cases.due_at', '<', now).where('cases.state', '<>', 'resolved');
  if (filters.from) {
    const from = `${filters.from}T00:00:00.000Z`;
    // A case falls due after it opened (due hours are at least 1, and a reopened case falls due
    // after its reopening): said outright, the queue's order by due time starts at the range.
    q = q.where('cases.opened_at', '>=', from).where('cases.due_at', '>=', from);
  }
  if (filters.to) q = q.where('cases.opened_at', '<=', endOfDay(filters.to));
  if (filters.q) q = q.where('cases.tracking_id', '=', filters.q);
  return q;
}

/** The usernames of these user ids. */
export async function findUsernames(kysely: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await kysely
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}

export async function findUserId(kysely: Executor, username: string): Promise<number | undefined> {
  return (await kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst())?.id;
}

/** The photos of a case, without their bytes, oldest first. */
export async function findCasePhotos(kysely: Executor, caseId: number): Promise<CasePhoto[]> {
  const rows = await kysely
    .selectFrom('case_photos as p')
    .leftJoin('users as u', 'u.id', 'p.added_by_id')
    .select(['p.id', 'p.content_type', 'p.size', 'u.username', 'p.added_at'])
    .where('p.case_id', '=', caseId)
    .orderBy('p.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    content_type: row.content_type,
    size: row.size,
    by: row.username ?? null,
    at: row.added_at,
    url: `api/cases/photos/${row.id}/`,
  }));
}

/** The id of the device record of a tracking ID, if any. */
export async function findRecordId(kysely: Executor, trackingId: string): Promise<number | undefined> {
  return (
    await kysely.selectFrom('device_records').select('id').where('tracking_id', '=', trackingId).executeTakeFirst()
  )?.id;
}
