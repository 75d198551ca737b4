// Writing events (docs/events.md): each write that changes what a console shows inserts its events
// into `events` in its own transaction, so an event exists exactly when its change committed.
//
// Ids must grow in commit order, or a stream that has sent id 7 could later find 6 committed and
// skip it. On SQLite one writer at a time gives that. On PostgreSQL two transactions take ids from
// the sequence in one order and may commit in the other, so the events are inserted last, after
// an advisory lock held to the commit: the next writer takes its id only once this one committed.
// pg_notify wakes every instance's hub at the commit; on SQLite the hub of this process is woken
// through the in-process bus once the transaction is over.
import type { GroupsEvent, LiveEventType, Organization, RemotesEvent, Role, UsersEvent } from '@veritas/shared/domain';
import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import { wakeAfterCommit } from './bus';

export interface NewEvent {
  /** The stream's event name ('reset' is the stream's own, never stored). */
  type: LiveEventType;
  /** The event's data: JSON text, one line. */
  data: string;
}

/** The PostgreSQL channel every hub listens on. */
export const EVENTS_CHANNEL = 'veritas_events';
/** The advisory lock of the events' insert: an arbitrary constant no other lock of the API uses. */
const EVENTS_LOCK = 0x76_65_72_69_74; // 'verit'
/** Taking it until the transaction ends (PostgreSQL). */
const takeEventsLock = sql`pg_advisory_xact_lock(${sql.lit(EVENTS_LOCK)})`;

/**
 * Takes the events' lock until `trx` commits (PostgreSQL; SQLite has one writer anyway): what must
 * be in commit order besides the events, the audit trail's chain, is written under it too.
 */
export async function lockEventOrder(trx: Kysely<Database>, db: Db): Promise<void> {
  if (db.engine === 'postgres') await sql`select ${takeEventsLock}`.execute(trx);
}

const INSERTS = new WeakMap<SQLiteDatabase, Statement>();

/**
 * Inserts `events` in `trx`, the transaction of the write that made them. On PostgreSQL this must
 * be the transaction's last statement: the lock it takes serializes every writer until the commit.
 */
export async function writeEvents(trx: Kysely<Database>, db: Db, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  const now = Date.now();
  if (db.sqlite) {
    // SQLite's own handle, the statement prepared once (as the summaries' writes do); the Kysely
    // transaction holds the one connection meanwhile.
    let insert = INSERTS.get(db.sqlite);
    if (!insert)
      INSERTS.set(
        db.sqlite,
        (insert = db.sqlite.prepare('insert into events (type, data, created_ms) values (?, ?, ?)')),
      );
    for (const event of events) insert.run(event.type, event.data, now);
    wakeAfterCommit(db);
    return;
  }
  // One statement, so the lock is held a round trip less: the rows are made (and take their ids)
  // only once the one-row subquery took the lock.
  await sql`
    insert into events (type, data, created_ms)
    select event.type, event.data, ${now}::bigint
    from (select ${takeEventsLock}, pg_notify(${EVENTS_CHANNEL}, '')) as locked,
      json_to_recordset(${JSON.stringify(events)}::json) as event(type text, data text)`.execute(trx);
}

/** A user created, activated or deactivated. */
export function userEvent(action: UsersEvent['action'], username: string, role: Role): NewEvent {
  return { type: 'users', data: JSON.stringify({ action, username, role } satisfies UsersEvent) };
}

/** A group created. */
export function groupEvent(group: { name: string; code: string; organization: Organization }): NewEvent {
  const { name, code, organization } = group;
  return {
    type: 'groups',
    data: JSON.stringify({ action: 'created', name, code, organization } satisfies GroupsEvent),
  };
}

/** A remote's rollout changed: whoever shows it loads /remotes.json again. */
export function remotesEvent(remote: string): NewEvent {
  return { type: 'remotes', data: JSON.stringify({ remote } satisfies RemotesEvent) };
}
