// The bulk jobs' queries (jobs.ts): a job, its items, and its lease.
import type { Insertable, Kysely, SelectQueryBuilder } from 'kysely';
import type { CaseJobsTable, Database } from '../db/schema';

type Executor = Kysely<Database>;

export async function insertCaseJob(kysely: Executor, job: Insertable<CaseJobsTable>): Promise<number> {
  return (await kysely.insertInto('case_jobs').values(job).returning('id').executeTakeFirstOrThrow()).id;
}

/** Lists the job's cases (the ids `cases` selects) as its items, and sets its total; answers the total. */
export async function listJobItems(
  kysely: Executor,
  jobId: number,
  cases: SelectQueryBuilder<Database, 'cases', { id: number }>,
): Promise<number> {
  const result = await kysely
    .insertInto('case_job_items')
    .columns(['job_id', 'case_id'])
    .expression(cases.clearSelect().select((eb) => [eb.val(jobId).as('job_id'), 'cases.id as case_id']))
    .executeTakeFirst();
  const total = Number(result.numInsertedOrUpdatedRows ?? 0);
  await kysely.updateTable('case_jobs').set({ total }).where('id', '=', jobId).execute();
  return total;
}

/** The queues of a job's cases, each once, sorted. */
export async function findJobQueues(kysely: Executor, jobId: number): Promise<string[]> {
  const rows = await kysely
    .selectFrom('case_job_items as i')
    .innerJoin('cases', 'cases.id', 'i.case_id')
    .select('cases.queue')
    .distinct()
    .where('i.job_id', '=', jobId)
    .orderBy('cases.queue')
    .execute();
  return rows.map((row) => row.queue);
}

export function findCaseJob(kysely: Executor, id: number) {
  return kysely.selectFrom('case_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUnfinishedJobIds(kysely: Executor): Promise<number[]> {
  const rows = await kysely.selectFrom('case_jobs').select('id').where('state', '=', 'running').orderBy('id').execute();
  return rows.map((row) => row.id);
}

/** Takes the job's lease when it is free or ran out; false when another runner holds it. */
export async function claimCaseJob(kysely: Executor, id: number, owner: string, now: number, leaseMs: number) {
  const result = await kysely
    .updateTable('case_jobs')
    .set({ lease_owner: owner, lease_until_ms: now + leaseMs })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where((eb) =>
      eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<', now), eb('lease_owner', '=', owner)]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends the lease in the batch's transaction; false when it was lost (the batch then writes nothing). */
export async function renewCaseJob(kysely: Executor, id: number, owner: string, until: number): Promise<boolean> {
  const result = await kysely
    .updateTable('case_jobs')
    .set({ lease_until_ms: until })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Up to `limit` items still to do, by case id after `afterCaseId` (the last of the batch before). */
export async function findPendingItems(
  kysely: Executor,
  jobId: number,
  afterCaseId: number,
  limit: number,
): Promise<number[]> {
  const rows = await kysely
    .selectFrom('case_job_items')
    .select('case_id')
    .where('job_id', '=', jobId)
    .where('case_id', '>', afterCaseId)
    .where('outcome', 'is', null)
    .orderBy('case_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.case_id);
}

export async function markJobItem(kysely: Executor, jobId: number, caseId: number, outcome: 'changed' | 'skipped') {
  await kysely
    .updateTable('case_job_items')
    .set({ outcome })
    .where('job_id', '=', jobId)
    .where('case_id', '=', caseId)
    .execute();
}

export async function finishCaseJob(kysely: Executor, id: number, at: string): Promise<void> {
  await kysely
    .updateTable('case_jobs')
    .set({ state: 'done', finished_at: at, lease_owner: null })
    .where('id', '=', id)
    .execute();
}

export async function addJobProgress(kysely: Executor, id: number, changed: number, skipped: number): Promise<void> {
  await kysely
    .updateTable('case_jobs')
    .set((eb) => ({ done: eb('done', '+', changed), skipped: eb('skipped', '+', skipped) }))
    .where('id', '=', id)
    .execute();
}
