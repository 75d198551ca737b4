// The case queue (docs/cases.md#the-queue): a viewer's cases by due time, filtered, in pages with a
// keyset cursor (due time, id), their count bounded as the pick list's, the CSV of the same filters
// streamed, and the open and overdue totals the Dashboard's tiles and the top bar's badge show.
import {
  CASE_COUNT_CAP,
  isOverdue,
  canReadCase,
  canWorkCase,
  deviceError,
  type CaseCount,
  type CaseFilters,
  type CasePage,
  type CaseSummary,
  type CaseTotals,
  type CaseViewer,
} from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import { userMayBeAssignedCase } from '../auth/rights';
import type { Database, Db } from '../db/schema';
import { BadRequest, Forbidden } from '../http-errors';
import { csvLine, UTF8_BOM } from '../report/csv';
import { isoInstant } from '../upload/iso-date';
import {
  findCasesOf,
  findCaseWorkers,
  findUserId,
  findUsernames,
  summaryOf,
  whereCases,
  type CaseSelection,
} from './repository';

export type QueueViewer = CaseViewer & { id: number };

const PAGE_COLUMNS = [
  'cases.id',
  'cases.tracking_id',
  'cases.reason',
  'cases.state',
  'cases.disposition',
  'cases.queue',
  'cases.assignee_id',
  'cases.due_at',
  'cases.opened_at',
  'cases.resolved_at',
  'cases.version',
] as const;

/** The filters with the assignee as an id: `me` the viewer, a username its id (0 when there is none: no case). */
export async function selectionOf(
  kysely: Kysely<Database>,
  filters: CaseFilters,
  viewer: QueueViewer,
): Promise<CaseSelection> {
  const { assignee, ...rest } = filters;
  if (!assignee) return rest;
  if (assignee === 'none') return { ...rest, assignee: 'none' };
  if (assignee === 'me') return { ...rest, assignee: viewer.id };
  return { ...rest, assignee: (await findUserId(kysely, assignee)) ?? 0 };
}

/** Up to `limit` cases after the cursor `after` (`<due_at>~<id>`), by due time then id. */
async function casesAfter(
  kysely: Kysely<Database>,
  selection: CaseSelection,
  viewer: QueueViewer,
  after: string | null,
  limit: number,
): Promise<CaseSummary[]> {
  let ids = whereCases(kysely.selectFrom('cases').select('cases.id'), selection, viewer, new Date().toISOString());
  if (after) {
    const [dueAt, id] = after.split('~') as [string, string];
    ids = ids.where((eb) => eb(eb.refTuple('cases.due_at', 'cases.id'), '>', eb.tuple(dueAt, Number(id))));
  }
  // The page's ids first, then their rows: the ids of active cases come from one index alone
  // (migration 019), whatever the filters, without reading a row the filters leave out.
  const rows = await kysely
    .selectFrom('cases')
    .select(PAGE_COLUMNS)
    .where('cases.id', 'in', ids.orderBy('cases.due_at').orderBy('cases.id').limit(limit))
    .orderBy('cases.due_at')
    .orderBy('cases.id')
    .execute();
  const usernames = await findUsernames(
    kysely,
    rows.flatMap((row) => (row.assignee_id === null ? [] : [row.assignee_id])),
  );
  return rows.map((row) =>
    summaryOf({ ...row, assignee: row.assignee_id === null ? null : (usernames.get(row.assignee_id) ?? null) }),
  );
}

const cursorOf = (summary: CaseSummary) => `${summary.due_at}~${summary.id}`;

export async function casePage(
  db: Db,
  viewer: QueueViewer,
  query: CaseFilters & { after?: string; limit?: string },
): Promise<CasePage> {
  const { after, limit: limitText, ...filters } = query;
  // The schema holds the cursor's form; a due time the server could not have written (30 February)
  // is no next value of a page either.
  const dueAt = after?.split('~')[0];
  if (dueAt !== undefined && isoInstant(dueAt) !== dueAt)
    throw new BadRequest('after', 'after must be the next value of an earlier page.');
  const limit = Number(limitText ?? 50);
  const selection = await selectionOf(db.kysely, filters, viewer);
  const cases = await casesAfter(db.kysely, selection, viewer, after ?? null, limit + 1);
  if (cases.length <= limit) return { cases, next: null };
  cases.length = limit;
  return { cases, next: cursorOf(cases[limit - 1]!) };
}

/** How many cases match, counted up to CASE_COUNT_CAP (`capped`: at least that many). */
export async function caseCount(db: Db, viewer: QueueViewer, filters: CaseFilters): Promise<CaseCount> {
  const selection = await selectionOf(db.kysely, filters, viewer);
  const matching = whereCases(
    db.kysely.selectFrom('cases').select('cases.id'),
    selection,
    viewer,
    new Date().toISOString(),
  )
    .limit(CASE_COUNT_CAP + 1)
    .as('matching');
  // Counting up to the cap may read many rows: a long read (Db.reads).
  const row = await db.reads
    .selectFrom(matching)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const total = Number(row.n);
  return total > CASE_COUNT_CAP ? { total: CASE_COUNT_CAP, capped: true } : { total, capped: false };
}

/** Open (not resolved) and overdue cases the viewer sees: of a hub's queue, or the viewer's own. */
export async function caseTotals(
  db: Db,
  viewer: QueueViewer,
  scope: { hub?: string; mine?: string },
): Promise<CaseTotals> {
  const filters: CaseFilters = {
    state: 'active',
    ...(scope.hub && scope.hub.toLowerCase() !== 'all' ? { queue: scope.hub } : {}),
    ...(scope.mine === '1' ? { assignee: 'me' } : {}),
  };
  const [open, overdue] = await Promise.all([
    caseCount(db, viewer, filters),
    caseCount(db, viewer, { ...filters, overdue: '1' }),
  ]);
  return { open: open.total, overdue: overdue.total };
}

/** The cases of a tracking ID the viewer may read, newest first. */
export async function casesOfTracking(db: Db, viewer: QueueViewer, trackingId: string): Promise<CaseSummary[]> {
  return (await findCasesOf(db.kysely, trackingId)).filter((row) => canReadCase(viewer, row.queue)).map(summaryOf);
}

/** The queues `queue` names: one group code, or several separated by commas (each once, in capitals). */
export function assigneeQueues(queue: string): string[] {
  const queues = [...new Set(queue.split(',').map((code) => code.trim().toUpperCase()))].filter(Boolean);
  if (queues.length === 0) throw new BadRequest('queue', 'queue is required.');
  return queues;
}

/**
 * The active users who may work the cases of `queue`, or of every one of the queues it names
 * (docs/cases.md#assigning): the users a bulk assignment of cases of several queues may be given to.
 * Asked by who may work those queues, who alone assigns their cases: nobody else learns who works them.
 */
export async function caseAssignees(
  db: Db,
  viewer: CaseViewer,
  queue: string,
): Promise<{ username: string; role: string }[]> {
  const queues = assigneeQueues(queue);
  if (!queues.every((code) => canWorkCase(viewer, code)))
    throw new Forbidden('Your role cannot work the cases of this queue.');
  const workers = await findCaseWorkers(db.kysely);
  return workers
    .filter((user) => queues.every((code) => userMayBeAssignedCase(user, code)))
    .map(({ username, role }) => ({ username, role }));
}

export const CASE_CSV_COLUMNS = [
  'Case',
  'Tracking ID',
  'Reason',
  'Reason title',
  'State',
  'Disposition',
  'Queue',
  'Assignee',
  'Due',
  'Overdue',
  'Opened',
  'Resolved',
];
const EXPORT_PAGE = 1000;

/** A case's cells, overdue judged at `now` (ms). */
function csvCells(summary: CaseSummary, now: number): string[] {
  return [
    String(summary.id),
    summary.tracking_id,
    summary.reason,
    deviceError(summary.reason)?.title ?? '',
    summary.state,
    summary.disposition ?? '',
    summary.queue,
    summary.assignee ?? '',
    summary.due_at,
    isOverdue(summary, now) ? 'yes' : 'no',
    summary.opened_at,
    summary.resolved_at ?? '',
  ];
}

/** The cases matching the filters, by due time, as CSV text a page at a time (cells formula-safe, as the report's). */
export async function* casesCsv(db: Db, viewer: QueueViewer, filters: CaseFilters): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(CASE_CSV_COLUMNS);
  const selection = await selectionOf(db.kysely, filters, viewer);
  const now = Date.now();
  let after: string | null = null;
  for (;;) {
    const cases = await casesAfter(db.kysely, selection, viewer, after, EXPORT_PAGE);
    if (cases.length > 0) yield cases.map((summary) => csvLine(csvCells(summary, now))).join('');
    if (cases.length < EXPORT_PAGE) return;
    after = cursorOf(cases[cases.length - 1]!);
  }
}
