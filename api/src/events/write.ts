// Writing events (docs/events.md): each write that changes what a console shows inserts its events
// into `events` in its own transaction, so an event exists exactly when its change committed.
// Ids grow in commit order (event-order.ts); each engine inserts them its own way
// (event-inserts.postgres.ts, event-inserts.sqlite.ts).
import type {
  CasesEvent,
  CaseSummary,
  GroupsEvent,
  LiveEventType,
  Organization,
  RemotesEvent,
  ShipmentWebhookData,
  Role,
  UsersEvent,
} from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import { forEngine } from '../db/engines';
import type { Database, Db } from '../db/schema';
import { postgresEventInserts } from './event-inserts.postgres';
import { sqliteEventInserts } from './event-inserts.sqlite';

/**
 * What the events table holds: the streams' events, and 'shipments', an upload finished, which
 * only the webhooks read (no console is sent it: docs/webhooks.md#events).
 */
export type StoredEventType = LiveEventType | 'shipments';

export interface NewEvent {
  /** The stream's event name ('reset' is the stream's own, never stored), or 'shipments'. */
  type: StoredEventType;
  /** The event's data: JSON text, one line. */
  data: string;
}

/** Inserts `events` in `trx` at `now` (ms), in commit order (event-order.ts). */
export type EventInserts = (trx: Kysely<Database>, db: Db, events: readonly NewEvent[], now: number) => Promise<void>;

/**
 * Inserts `events` in `trx`, the transaction of the write that made them. This must be the
 * transaction's last statement: on PostgreSQL the lock it takes serializes every writer until the commit.
 */
export async function writeEvents(trx: Kysely<Database>, db: Db, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await forEngine(db, { postgres: postgresEventInserts, sqlite: sqliteEventInserts })(trx, db, events, Date.now());
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

/** A shipment (an upload) finished: what the webhooks' shipment.ingested says of it. */
export function shipmentEvent(data: ShipmentWebhookData): NewEvent {
  return { type: 'shipments', data: JSON.stringify(data) };
}

/** A case opened or changed (docs/cases.md#events). */
export function casesEvent(action: CasesEvent['action'], summary: CaseSummary): NewEvent {
  return { type: 'cases', data: JSON.stringify({ action, case: summary } satisfies CasesEvent) };
}
