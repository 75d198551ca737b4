// The transactional outbox (docs/webhooks.md#outbox). The events table is written in the transaction
// of every change (src/events/write.ts), its ids in commit order: the fan-out reads the events after
// its place (webhook_fan_out), makes their messages (messages.ts) and a delivery for each endpoint
// that takes the type, and moves its place, all in one transaction: an event is fanned out once,
// by one instance, and none is skipped. The events are not pruned past that place.
// Deliveries are claimed by pushing their due time past the attempt's timeout in the claiming
// statement (rows another instance holds passed by): no two instances send one attempt, and the
// attempt of an instance that dies falls due again.
import type { Kysely } from 'kysely';
import { claimingRows } from '../db/engines';
import type { Database, Db } from '../db/schema';
import { scopesOf } from '@veritas/shared/domain';
import { messagesOf, type NewMessage } from './messages';

/** Events read per fan-out transaction. */
export const FAN_OUT_PAGE = 500;

/**
 * Fans out the next page of events; answers how many events it read (0: none left, or another
 * instance is fanning out).
 */
export async function fanOut(db: Db, now = Date.now()): Promise<number> {
  return db.transaction(async (trx) => {
    const place = await claimingRows(
      db,
      trx.selectFrom('webhook_fan_out').select('last_event_id').where('id', '=', 1),
    ).executeTakeFirst();
    if (!place) return 0;
    const events = await trx
      .selectFrom('events')
      .select(['id', 'type', 'data', 'created_ms'])
      .where('id', '>', Number(place.last_event_id))
      .orderBy('id')
      .limit(FAN_OUT_PAGE)
      .execute();
    if (events.length === 0) return 0;
    const endpoints = (
      await trx.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('enabled', '=', 1).execute()
    ).map((endpoint) => ({ id: endpoint.id, types: new Set(scopesOf(endpoint.event_types)) }));
    if (endpoints.length > 0) {
      const messages = events.flatMap((event) =>
        messagesOf({ id: Number(event.id), type: event.type, data: event.data, createdMs: Number(event.created_ms) }),
      );
      await enqueue(
        trx,
        messages,
        (message) => endpoints.filter((e) => e.types.has(message.type)).map((e) => e.id),
        now,
      );
    }
    await trx
      .updateTable('webhook_fan_out')
      .set({ last_event_id: Number(events.at(-1)!.id) })
      .where('id', '=', 1)
      .execute();
    return events.length;
  });
}

/**
 * Fans out page after page while they come full, `fanOutPage` reading each; a short page ends it,
 * and the events committed meanwhile wait for the next round: chasing them kept a busy PostgreSQL
 * instance fanning out for seconds while nothing was claimed.
 */
export async function fanOutWhileFull(fanOutPage: () => Promise<number>, stopped: () => boolean): Promise<void> {
  while (!stopped() && (await fanOutPage()) === FAN_OUT_PAGE);
}

/** Stores `messages` that some endpoint takes, and their deliveries, due now. */
export async function enqueue(
  trx: Kysely<Database>,
  messages: readonly NewMessage[],
  endpointsOf: (message: NewMessage) => number[],
  now: number,
): Promise<void> {
  const taken = messages.map((message) => ({ message, endpoints: endpointsOf(message) }));
  const sent = taken.filter((t) => t.endpoints.length > 0);
  if (sent.length === 0) return;
  await trx
    .insertInto('webhook_messages')
    .values(sent.map(({ message }) => ({ id: message.id, type: message.type, body: message.body, created_ms: now })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await trx
    .insertInto('webhook_deliveries')
    .values(
      sent.flatMap(({ message, endpoints }) =>
        endpoints.map((endpoint) => ({
          message_id: message.id,
          endpoint_id: endpoint,
          state: 'pending' as const,
          next_attempt_ms: now,
          created_ms: now,
        })),
      ),
    )
    .execute();
}

/** A delivery claimed for one attempt: the message, and where and with what it is signed. */
export interface ClaimedDelivery {
  id: number;
  attempts: number;
  messageId: string;
  body: string;
  endpointId: number;
  url: string;
  secrets: string[];
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints for one attempt each: their due time
 * moves to `leaseUntil`, past the attempt's timeout, in the claiming transaction.
 */
export async function claimDue(db: Db, now: number, leaseUntil: number, limit: number): Promise<ClaimedDelivery[]> {
  return db.transaction(async (trx) => {
    // The deliveries alone are locked: an endpoint's row stays free for its outcomes.
    const ids = (
      await claimingRows(
        db,
        trx
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('state', '=', 'pending')
          .where('next_attempt_ms', '<=', now)
          .where('endpoint_id', 'in', trx.selectFrom('webhook_endpoints').select('id').where('enabled', '=', 1))
          .orderBy('next_attempt_ms')
          .limit(limit),
      ).execute()
    ).map((row) => row.id);
    if (ids.length === 0) return [];
    await trx.updateTable('webhook_deliveries').set({ next_attempt_ms: leaseUntil }).where('id', 'in', ids).execute();
    const due = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
      .select([
        'd.id',
        'd.attempts',
        'd.message_id',
        'm.body',
        'e.id as endpoint_id',
        'e.url',
        'e.secret',
        'e.previous_secret',
        'e.previous_expires_ms',
      ])
      .where('d.id', 'in', ids)
      .execute();
    return due.map((d) => ({
      id: d.id,
      attempts: d.attempts,
      messageId: d.message_id,
      body: d.body,
      endpointId: d.endpoint_id,
      url: d.url,
      // The old secret signs too until it expires (docs/webhooks.md#secrets).
      secrets: d.previous_secret && Number(d.previous_expires_ms) > now ? [d.secret, d.previous_secret] : [d.secret],
    }));
  });
}
