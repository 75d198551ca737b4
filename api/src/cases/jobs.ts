// Bulk jobs (docs/cases.md#bulk-actions): assign or resolve up to MAX_BULK_CASES cases as one job
// on the server, with progress. Its cases are listed when it is created; a runner on any instance
// of the fleet takes a job under a lease and changes its cases in batches, each case changed and
// audited on its own and its item marked done in the same transaction, so a job resumed after a
// restart (or by another instance once the lease ran out) never changes a case twice.
import {
  CASE_FORM_MESSAGES,
  MAX_BULK_CASES,
  worksAllCases,
  type CaseJob,
  type NewCaseJob,
  type Role,
} from '@veritas/shared/domain';
import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { recordAudit, type AuditBy } from '../audit/trail';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import { BadRequest, Conflict, DomainError, NotFound } from '../http-errors';
import type { BackgroundJob } from '../jobs';
import {
  assignmentOf,
  changeCaseIn,
  eligibleAssignee,
  resolutionOf,
  type CaseActor,
  type UserCaseActor,
} from './cases';
import {
  addJobProgress,
  claimCaseJob,
  finishCaseJob,
  findCaseJob,
  findJobQueues,
  findPendingItems,
  findUnfinishedJobIds,
  insertCaseJob,
  listJobItems,
  markJobItem,
  renewCaseJob,
} from './job-repository';
import { selectionOf } from './queue';
import { whereCases } from './repository';

/** What a job does to each case, and who it acts as (its creator, with the rights they had). */
interface JobParams {
  assignee?: string | null;
  disposition?: NonNullable<NewCaseJob['disposition']>;
  note?: string;
  actor: { id: number; username: string; role: Role; groupCode: string | null; address: string | null };
}

const BATCH = 200;
/** A runner renews its lease every batch; another instance takes the job once it ran out. */
export const JOB_LEASE_MS = 30_000;
const POLL_MS = 2_000;
const BATCH_PAUSE_MS = 10;

const jobOf = (row: NonNullable<Awaited<ReturnType<typeof findCaseJob>>>): CaseJob => ({
  id: row.id,
  action: row.action,
  state: row.state,
  total: row.total,
  done: row.done,
  skipped: row.skipped,
  created_at: row.created_at,
  finished_at: row.finished_at,
});

function paramsOf(actor: UserCaseActor, job: NewCaseJob): JobParams {
  const by = {
    id: actor.id,
    username: actor.username,
    role: actor.role,
    groupCode: actor.groupCode,
    address: actor.by.address,
  };
  if (job.action === 'assign') {
    if (job.assignee === undefined) throw new BadRequest('assignee', CASE_FORM_MESSAGES.jobAssigneeMissing);
    return { assignee: job.assignee, actor: by };
  }
  if (!job.disposition) throw new BadRequest('disposition', CASE_FORM_MESSAGES.dispositionMissing);
  if (!job.note?.trim()) throw new BadRequest('note', CASE_FORM_MESSAGES.resolutionNoteMissing);
  return { disposition: job.disposition, note: job.note.trim(), actor: by };
}

/**
 * Creates the job, for a role the route let run jobs, with its cases: those named, or every case
 * the filters match that the creator may work.
 */
export async function createCaseJob(db: Db, actor: UserCaseActor, job: NewCaseJob): Promise<CaseJob> {
  if (job.ids === undefined && job.filters === undefined)
    throw new BadRequest('ids', 'Name the cases (ids) or the filters they match.');
  if (job.ids !== undefined && job.filters !== undefined)
    throw new BadRequest('ids', 'Name the cases (ids) or the filters they match, not both.');
  const params = paramsOf(actor, job);
  const selection = job.filters ? await selectionOf(db.kysely, job.filters, actor) : null;
  const now = new Date().toISOString();
  const id = await db.transaction(async (trx) => {
    let cases = whereCases(trx.selectFrom('cases').select('cases.id'), selection ?? { state: 'all' }, actor, now);
    if (job.ids) cases = cases.where('cases.id', 'in', job.ids.length ? job.ids : [0]);
    const jobId = await insertCaseJob(trx, {
      action: job.action,
      params: JSON.stringify(params),
      created_by_id: actor.id,
      created_at: now,
      state: 'running',
      total: 0,
    });
    const total = await listJobItems(trx, jobId, cases.orderBy('cases.id').limit(MAX_BULK_CASES + 1));
    if (total > MAX_BULK_CASES)
      throw new Conflict(`The filters match more than ${MAX_BULK_CASES.toLocaleString('en-US')} cases: narrow them.`);
    if (total === 0) throw new Conflict('No case matches: there is nothing to change.');
    if (params.assignee) await checkBulkAssignee(trx, jobId, params.assignee);
    await recordAudit(trx, db, actor.by, {
      action: 'case.bulk-started',
      outcome: 'success',
      target: null,
      details: {
        after: {
          job: jobId,
          action: job.action,
          cases: total,
          assignee: params.assignee,
          disposition: params.disposition,
        },
      },
    });
    return jobId;
  });
  return (await caseJob(db, actor, id))!;
}

/**
 * A bulk assignment's assignee is a user who may work the queue of one of its cases at least (a case
 * of another queue is skipped): else the job is refused as the single assignment would be (400).
 */
async function checkBulkAssignee(kysely: Kysely<Database>, jobId: number, assignee: string): Promise<void> {
  let refusal: unknown = null;
  for (const queue of await findJobQueues(kysely, jobId)) {
    try {
      await eligibleAssignee(kysely, assignee, queue);
      return;
    } catch (error) {
      refusal ??= error;
    }
  }
  if (refusal) throw refusal;
}

export async function caseJob(db: Db, viewer: { id: number; role: Role }, id: number): Promise<CaseJob> {
  const row = await findCaseJob(db.kysely, id);
  if (!row || (row.created_by_id !== viewer.id && !worksAllCases(viewer.role)))
    throw new NotFound(`Job ${id} not found.`);
  return jobOf(row);
}

/**
 * Runs one batch of the job's pending cases after case `after`; answers the batch's last case id,
 * or null once none is left or the lease was lost.
 */
async function runBatch(db: Db, jobId: number, owner: string, after: number): Promise<number | null> {
  const row = await findCaseJob(db.kysely, jobId);
  if (!row || row.state !== 'running') return null;
  const params = JSON.parse(row.params) as JobParams;
  const { actor: creator } = params;
  const by: AuditBy = {
    actor: { kind: 'user', id: String(creator.id), name: creator.username, role: creator.role },
    address: creator.address,
  };
  const actor: CaseActor = { ...creator, by };
  return db.transaction(async (trx) => {
    if (!(await renewCaseJob(trx, jobId, owner, Date.now() + JOB_LEASE_MS))) return null;
    const pending = await findPendingItems(trx, jobId, after, BATCH);
    if (pending.length === 0) {
      await finishCaseJob(trx, jobId, new Date().toISOString());
      return null;
    }
    let changed = 0;
    for (const caseId of pending) {
      let outcome: 'changed' | 'skipped' = 'changed';
      try {
        await changeCaseIn(trx, db, actor, caseId, 'current', (found, at) =>
          row.action === 'assign'
            ? assignmentOf(trx, found, params.assignee ?? null)
            : resolutionOf(found, params.disposition!, params.note!, at),
        );
        changed += 1;
      } catch (error) {
        // A refusal comes before any write of the case: it stays as it was (already resolved, out of the creator's queues).
        if (!(error instanceof DomainError)) throw error;
        outcome = 'skipped';
      }
      await markJobItem(trx, jobId, caseId, outcome);
    }
    await addJobProgress(trx, jobId, changed, pending.length - changed);
    return pending[pending.length - 1]!;
  });
}

/**
 * The runner of an instance: it takes the unfinished jobs whose lease is free or ran out, one at a
 * time, and works each to its end. Started with the server (jobs.ts); `kick()` starts it at once
 * after a job is created here.
 */
export class CaseJobRunner implements BackgroundJob {
  private readonly owner = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.running;
  }

  kick(): void {
    if (this.running || this.stopping) return;
    this.running = this.runAll()
      .catch((error: unknown) => this.log.warn({ err: error }, 'Case job runner failed; retried at its next turn'))
      .finally(() => (this.running = undefined));
  }

  /** Works every job it can take; resolves when none is left or the server stops. */
  async runAll(): Promise<void> {
    for (const jobId of await findUnfinishedJobIds(this.db.kysely)) {
      if (this.stopping) return;
      if (!(await claimCaseJob(this.db.kysely, jobId, this.owner, Date.now(), JOB_LEASE_MS))) continue;
      let after: number | null = 0;
      while (!this.stopping && after !== null) {
        after = await runBatch(this.db, jobId, this.owner, after);
        // A pause between batches: SQLite has one connection, and a request's queries would
        // otherwise wait behind the whole job, each queued after the runner's next one.
        await sleep(BATCH_PAUSE_MS);
      }
    }
  }
}
