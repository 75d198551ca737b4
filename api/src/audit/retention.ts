// The audit trail's retention (docs/audit.md#retention): the one path that deletes entries. It
// deletes those older than the retention period (never the newest), and records itself in the trail
// with the seq and hash of the last entry it deleted, so the chain's check starts from there.
// Each instance runs it at start and once a day (auditPruning, a job of the server's: jobs.ts);
// `pnpm --filter api audit:prune` runs it at once. The append-only triggers stay on for everything
// else: each engine lets this transaction alone past them (entry-deletion.postgres.ts,
// entry-deletion.sqlite.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { forEngine } from '../db/engines';
import type { Database, Db } from '../db/schema';
import type { BackgroundJob } from '../jobs';
import { wholeNumberFrom } from '../start-refused';
import { lockEventOrder } from '../events/event-order';
import { postgresEntryDeletion } from './entry-deletion.postgres';
import { sqliteEntryDeletion } from './entry-deletion.sqlite';
import { SYSTEM, recordAudit } from './trail';

export const DEFAULT_RETENTION_DAYS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Runs `work`, which deletes entries, in `trx` past the append-only trigger (entry-deletion.*.ts). */
export type EntryDeletion = <T>(trx: Kysely<Database>, work: () => Promise<T>) => Promise<T>;

/** What a pruning deleted: nothing (null), or the entries up to `throughSeq`. */
export interface Pruned {
  deleted: number;
  throughSeq: number;
}

/** Deletes the entries older than `retentionDays` (whole days before `now`) and records it. */
export async function pruneAuditLog(db: Db, retentionDays: number, now = Date.now()): Promise<Pruned | null> {
  const cutoffMs = now - retentionDays * DAY_MS;
  return db.transaction(async (trx) => {
    // One pruning at a time, in order with the entries written meanwhile.
    await lockEventOrder(trx, db);
    // Never the newest entry, however old: the next entry links to it.
    const newest = await trx.selectFrom('audit_log').select('seq').orderBy('seq', 'desc').limit(1).executeTakeFirst();
    const last = await trx
      .selectFrom('audit_log')
      .select(['seq', 'hash'])
      .where('created_ms', '<', cutoffMs)
      .where('seq', '<', newest?.seq ?? 0)
      .orderBy('created_ms', 'desc')
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!last) return null;
    const throughSeq = Number(last.seq);
    const deletion = forEngine(db, { postgres: postgresEntryDeletion, sqlite: sqliteEntryDeletion });
    const { numDeletedRows } = await deletion(trx, () =>
      trx.deleteFrom('audit_log').where('seq', '<=', throughSeq).executeTakeFirst(),
    );
    const deleted = Number(numDeletedRows);
    await recordAudit(trx, db, SYSTEM, {
      action: 'audit.pruned',
      outcome: 'success',
      target: { kind: 'audit-log', label: 'Audit log' },
      details: {
        retention_days: retentionDays,
        before: new Date(cutoffMs).toISOString(),
        deleted,
        through_seq: throughSeq,
        through_hash: last.hash,
      },
    });
    return { deleted, throughSeq };
  });
}

/** Pruning at start, then once a day; a failure is logged and waits for the next day. */
export function auditPruning(
  db: Db,
  retentionDays: number,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): BackgroundJob {
  const prune = () =>
    void pruneAuditLog(db, retentionDays).then(
      (pruned) => pruned && log.info(pruned, 'Audit entries past their retention deleted'),
      (error: unknown) => log.warn({ err: error }, 'Pruning the audit log failed'),
    );
  let daily: NodeJS.Timeout | undefined;
  return {
    start() {
      prune();
      daily = setInterval(prune, DAY_MS).unref();
    },
    stop: () => clearInterval(daily),
  };
}

/** VERITAS_AUDIT_RETENTION_DAYS, a whole number of days ≥ 1; default 400. */
export function retentionDaysFrom(env: NodeJS.ProcessEnv): number {
  return wholeNumberFrom(env, 'VERITAS_AUDIT_RETENTION_DAYS', 1, ' of days') ?? DEFAULT_RETENTION_DAYS;
}
