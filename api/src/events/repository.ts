// Reading the events table (docs/events.md#replay-window): what the hub broadcasts, what a stream
// replays, and the window's pruning.
import type { CasesEvent, Role } from '@veritas/shared/domain';
import { greatest } from '../db/engines';
import type { Db } from '../db/schema';
import type { StoredEventType } from './write';
import { canReadAuditLog, canReadCase, canSeeUser, type CaseViewer } from '../auth/rights';

/** Events are kept at least this long… */
export const REPLAY_WINDOW_MS = 10 * 60 * 1000;
/** …and at most this many (by id: ids that never committed count too). */
export const MAX_KEPT_EVENTS = 100_000;

export interface StoredEvent {
  id: number;
  type: StoredEventType;
  /** JSON text, one line. */
  data: string;
  /** Whether this viewer (a role, and its group for a case's queue) may see it (docs/events.md#events). */
  visibleTo(viewer: CaseViewer): boolean;
}

const everyone = () => true;

function storedOf(row: { id: number | string; type: string; data: string }): StoredEvent {
  const type = row.type as StoredEventType;
  let visibleTo: (viewer: CaseViewer) => boolean = everyone;
  // The webhooks' own: no stream is sent it.
  if (type === 'shipments') visibleTo = () => false;
  else if (type === 'users') {
    // A users event goes to the viewers who see that user in user/get_users/.
    const { role } = JSON.parse(row.data) as { role: Role };
    visibleTo = (viewer) => canSeeUser(viewer.role, role);
  } else if (type === 'audit') visibleTo = (viewer) => canReadAuditLog(viewer.role);
  else if (type === 'cases') {
    // A case's event goes to whoever may read the case (its queue).
    const { queue } = (JSON.parse(row.data) as CasesEvent).case;
    visibleTo = (viewer) => canReadCase(viewer, queue);
  }
  return { id: Number(row.id), type, data: row.data, visibleTo };
}

/** Up to `limit` events from id `fromId` on (that one included), in id order. */
export async function eventsFrom(db: Db, fromId: number, limit: number): Promise<StoredEvent[]> {
  const rows = await db.kysely
    .selectFrom('events')
    .select(['id', 'type', 'data'])
    .where('id', '>=', fromId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(storedOf);
}

/** The newest id in the table; 0 when it holds none. */
export async function newestEventId(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('newest'))
    .executeTakeFirst();
  return Number(row?.newest ?? 0);
}

/**
 * Deletes the events out of the window: those before the first one written within it, and beyond
 * the newest MAX_KEPT_EVENTS, once the webhooks' fan-out has read them. Always a prefix by id, never the newest event: so a stream that
 * finds an event still kept knows that none after it was deleted (routes.ts relies on it), and
 * the newest id is known even after a quiet hour. One statement; instances pruning at once delete
 * prefixes, which is harmless.
 */
export async function pruneEvents(db: Db, nowMs: number): Promise<void> {
  await db.kysely
    .deleteFrom('events')
    .where(({ eb, fn, selectFrom }) => {
      const newest = selectFrom('events').select((s) => s.fn.max('id').as('id'));
      const firstInWindow = selectFrom('events')
        .select('id')
        .where('created_ms', '>=', nowMs - REPLAY_WINDOW_MS)
        .orderBy('id')
        .limit(1);
      // Nor any the webhooks' fan-out has not read yet (src/webhooks/outbox.ts): the events are its outbox.
      const fannedOut = selectFrom('webhook_fan_out').select('last_event_id').where('id', '=', 1);
      return eb.and([
        eb('id', '<', greatest(db, fn.coalesce(firstInWindow, newest), eb(newest, '-', MAX_KEPT_EVENTS - 1))),
        eb('id', '<=', fannedOut),
      ]);
    })
    .execute();
}
