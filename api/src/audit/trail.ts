// Writing the audit trail (docs/audit.md): each entry is inserted by the action it records, in that
// action's transaction, so an entry exists exactly when its change committed; if the entry cannot
// be written the transaction fails and nothing changed.
//
// The chain: an entry's `seq` is the previous one's plus one and its `hash` is sha256 over the
// previous hash and its own content (chain.ts). Reading the previous entry and inserting the next
// must not interleave with another writer, on any instance: on PostgreSQL the events' advisory
// lock (held to the commit) serializes them, and the entry's own live event is written under the
// same lock; SQLite has one writer at a time.
import type {
  AuditAction,
  AuditActorKind,
  AuditEntry,
  AuditOutcome,
  AuditTargetKind,
  Role,
} from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import { isoOfMs, type AuditLogTable, type Database, type Db } from '../db/schema';
import { lockEventOrder } from '../events/event-order';
import { writeEvents } from '../events/write';
import { GENESIS_HASH, entryHash } from './chain';

export type { StoredRow };

export interface AuditActor {
  kind: AuditActorKind;
  id: string | null;
  name: string;
  role: Role | null;
}

/** Who acts and from where: what a route knows of its caller (actor.ts). */
export interface AuditBy {
  actor: AuditActor;
  /** The client's address; null for the server's own actions. */
  address: string | null;
}

export interface AuditTarget {
  kind: AuditTargetKind;
  id?: string | number | null;
  label: string;
}

export interface NewAuditEntry {
  action: AuditAction;
  outcome: AuditOutcome;
  target?: AuditTarget | null;
  details?: Record<string, unknown> | null;
}

/** A user acting from `address` (their own sign-in, or an action the route knows their account for). */
export function userBy(user: { id: number; username: string; role: Role }, address: string | null): AuditBy {
  return { actor: { kind: 'user', id: String(user.id), name: user.username, role: user.role }, address };
}

/** An access token acting (a deploy token, an API key), from `address`. */
export function tokenBy(token: { id: number; label: string }, address: string | null): AuditBy {
  return { actor: { kind: 'token', id: String(token.id), name: token.label, role: null }, address };
}

/** The actor as a history names it: a username, `token "<label>"`, or the server's own name. */
export const actorLabel = ({ actor }: AuditBy) => (actor.kind === 'token' ? `token "${actor.name}"` : actor.name);

/** The server itself, e.g. the retention path. */
export const SYSTEM: AuditBy = { actor: { kind: 'system', id: null, name: 'system', role: null }, address: null };

/** An entry's row; PostgreSQL reads its bigint columns back as text. */
export type AuditRow = Omit<AuditLogTable, 'seq' | 'created_ms'> & { seq: number; created_ms: number };
type StoredRow = Omit<AuditRow, 'seq' | 'created_ms'> & { seq: number | string; created_ms: number | string };

/**
 * Writes the entry in `trx`, the transaction of the change it records, and its live event. On
 * PostgreSQL this takes the events' lock until the commit: write it last, or just before the
 * change's own events.
 */
export async function recordAudit(trx: Kysely<Database>, db: Db, by: AuditBy, entry: NewAuditEntry): Promise<void> {
  if (db.auditTrail === false) return;
  await lockEventOrder(trx, db);
  const previous = await trx
    .selectFrom('audit_log')
    .select(['seq', 'created_ms', 'hash'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  const target = entry.target ?? null;
  const row: AuditRow = {
    seq: previous ? Number(previous.seq) + 1 : 1,
    // Never before the previous entry (clocks of two instances differ a little): the time range
    // of a search is then a range of seq.
    created_ms: Math.max(Date.now(), Number(previous?.created_ms ?? 0)),
    actor_kind: by.actor.kind,
    actor_id: by.actor.id,
    actor_name: by.actor.name,
    actor_role: by.actor.role,
    address: by.address,
    action: entry.action,
    target_kind: target?.kind ?? null,
    target_id: target?.id === undefined || target.id === null ? null : String(target.id),
    target_label: target?.label ?? null,
    outcome: entry.outcome,
    details: entry.details ? JSON.stringify(entry.details) : null,
    prev_hash: previous?.hash ?? GENESIS_HASH,
    hash: '',
  };
  row.hash = entryHash(row);
  await trx.insertInto('audit_log').values(row).execute();
  await writeEvents(trx, db, [{ type: 'audit', data: JSON.stringify(auditEntryOf(row)) }]);
}

/**
 * Records an entry in a transaction of its own: an action that changes nothing but is recorded
 * (a refusal, a download), or whose change commits on its own.
 */
export function recordAuditAlone(db: Db, by: AuditBy, entry: NewAuditEntry): Promise<void> {
  return db.transaction((trx) => recordAudit(trx, db, by, entry));
}

/** A stored row as audit/ answers it. */
export function auditEntryOf(row: StoredRow): AuditEntry {
  return {
    seq: Number(row.seq),
    time: isoOfMs(row.created_ms),
    actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name, role: row.actor_role },
    address: row.address,
    action: row.action,
    target:
      row.target_kind === null ? null : { kind: row.target_kind, id: row.target_id, label: row.target_label ?? '' },
    outcome: row.outcome,
    details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
    hash: row.hash,
  };
}
