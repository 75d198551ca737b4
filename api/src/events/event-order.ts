// Events in commit order (docs/events.md): ids must grow in commit order, or a stream that has
// sent id 7 could later find 6 committed and skip it. On SQLite one writer at a time gives that.
// On PostgreSQL two transactions take ids from the sequence in one order and may commit in the
// other, so the events are inserted last, after a lock held to the commit: the next writer takes
// its id only once this one committed.
import type { Kysely } from 'kysely';
import { lockUntilCommit } from '../db/engines';
import type { Database, Db } from '../db/schema';

/** The PostgreSQL channel every hub listens on. */
export const EVENTS_CHANNEL = 'veritas_events';
/** The lock of the events' insert: an arbitrary constant no other lock of the API uses. */
export const EVENTS_LOCK = 0x76_65_72_69_74; // 'verit'

/**
 * Takes the events' lock until `trx` commits: what must be in commit order besides the events,
 * the audit trail's chain, is written under it too.
 */
export async function lockEventOrder(trx: Kysely<Database>, db: Db): Promise<void> {
  await lockUntilCommit(trx, db, EVENTS_LOCK);
}
