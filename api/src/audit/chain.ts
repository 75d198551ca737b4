// The audit trail's hash chain (docs/audit.md#the-chain), as Certificate Transparency's logs chain
// theirs: each entry's hash covers the previous entry's hash and its own content, so changing,
// removing or inserting an entry breaks every link after it. Verifying reads the whole table in
// seq order, a page at a time (flat memory at any size).
import crypto from 'node:crypto';
import type { AuditVerification } from '@veritas/shared/domain';
import type { Db } from '../db/schema';
import type { StoredRow } from './trail';

/** The previous hash of the first entry ever written. */
export const GENESIS_HASH = '0'.repeat(64);

/** sha256 (hex) over the previous hash and the entry's content, every column but the hash itself. */
export function entryHash(row: Omit<StoredRow, 'hash'>): string {
  // A JSON array: each value is delimited, so no two different rows give the same text.
  const content = JSON.stringify([
    Number(row.seq),
    Number(row.created_ms),
    row.actor_kind,
    row.actor_id,
    row.actor_name,
    row.actor_role,
    row.address,
    row.action,
    row.target_kind,
    row.target_id,
    row.target_label,
    row.outcome,
    row.details,
  ]);
  return crypto.createHash('sha256').update(row.prev_hash).update('\n').update(content).digest('hex');
}

const PAGE = 5000;

/**
 * Whether the chain holds from the oldest entry kept to the newest: seq without gaps, each
 * prev_hash the hash before it, each hash its content's. The oldest entry kept links to the genesis
 * or, after a pruning, to the last entry pruned, whose hash the pruning's own entry recorded.
 */
export async function verifyChain(db: Db): Promise<AuditVerification> {
  let checked = 0;
  let first: number | null = null;
  let last: number | null = null;
  let expectedPrev: string | null = null;
  const broken = (seq: number, reason: string): AuditVerification => ({
    ok: false,
    checked,
    first,
    last,
    broken: { seq, reason },
  });
  for (;;) {
    let query = db.kysely.selectFrom('audit_log').selectAll().orderBy('seq').limit(PAGE);
    if (last !== null) query = query.where('seq', '>', last);
    const rows = await query.execute();
    for (const row of rows) {
      const seq = Number(row.seq);
      if (first === null) {
        first = seq;
        expectedPrev = seq === 1 ? GENESIS_HASH : await prunedThroughHash(db, seq - 1);
        if (expectedPrev === null) return broken(seq, `entries before ${seq} are missing and no pruning recorded them`);
      } else if (seq !== last! + 1) {
        return broken(last! + 1, `entry ${last! + 1} is missing`);
      }
      if (row.prev_hash !== expectedPrev) return broken(seq, `entry ${seq} does not link to the entry before it`);
      if (entryHash(row) !== row.hash)
        return broken(seq, `entry ${seq} was changed: its hash does not match its content`);
      expectedPrev = row.hash;
      last = seq;
      checked++;
    }
    if (rows.length < PAGE) break;
  }
  return { ok: true, checked, first, last, broken: null };
}

/** The hash of entry `seq` as the pruning that removed it recorded, or null. */
async function prunedThroughHash(db: Db, seq: number): Promise<string | null> {
  const prunings = await db.kysely
    .selectFrom('audit_log')
    .select('details')
    .where('action', '=', 'audit.pruned')
    .orderBy('seq', 'desc')
    .execute();
  for (const { details } of prunings) {
    const recorded = JSON.parse(details ?? '{}') as { through_seq?: number; through_hash?: string };
    if (recorded.through_seq === seq && recorded.through_hash) return recorded.through_hash;
  }
  return null;
}
