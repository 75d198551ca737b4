// The transactional outbox (docs/webhooks.md#outbox). The events table is written in the transaction
// of every change (src/events/write.ts), its ids in commit order: the fan-out reads the events after
// its place (webhook_fan_out), makes their messages (messages.ts) and a delivery for each endpoint
// that takes the type, and moves its place, all in the transaction it is given: an event is fanned
// out once, by one instance, and none is skipped. The events are not pruned past that place.
// Deliveries are claimed by pushing their due time past the attempt's timeout in the claiming
// statement (rows another instance holds passed by), or by making them with that due time (the
// fan-out's own): no two instances send one attempt, and the attempt of an instance that dies
// falls due again.
import type { Kysely, Selectable } from 'kysely';
import { claimingRows } from '../db/engines';
import type { Database, Db } from '../db/schema';
import { scopesOf } from '@veritas/shared/domain';
import { messagesOf, type NewMessage } from './messages';

/** Events read per fan-out transaction. */
export const FAN_OUT_PAGE = 500;

/** Deliveries an instance takes for one attempt each: at most `limit`, their due time moved to `until`. */
export interface Lease {
  until: number;
  limit: number;
}

/** A page of events fanned out: how many were read, and the new deliveries claimed under the lease. */
export interface FanOutPage {
  events: number;
  claimed: ClaimedDelivery[];
  /** New deliveries were left due for any instance: the lease had no room for them. */
  leftDue: boolean;
}

/**
 * Fans out the next page of events in `trx` (`events` 0: none left, or another instance is fanning
 * out). Its new deliveries are claimed under `lease` as far as it has room: the instance that makes
 * them sends them, with no claiming statement of their own (docs/webhooks.md#dispatcher).
 */
export async function fanOut(trx: Kysely<Database>, db: Db, now: number, lease: Lease): Promise<FanOutPage> {
  const page: FanOutPage = { events: 0, claimed: [], leftDue: false };
  const place = await claimingRows(
    db,
    trx.selectFrom('webhook_fan_out').select('last_event_id').where('id', '=', 1),
  ).executeTakeFirst();
  if (!place) return page;
  const events = await trx
    .selectFrom('events')
    .select(['id', 'type', 'data', 'created_ms'])
    .where('id', '>', Number(place.last_event_id))
    .orderBy('id')
    .limit(FAN_OUT_PAGE)
    .execute();
  if (events.length === 0) return page;
  page.events = events.length;
  const endpoints = (await trx.selectFrom('webhook_endpoints').selectAll().where('enabled', '=', 1).execute()).map(
    (endpoint) => ({ ...endpoint, types: new Set(scopesOf(endpoint.event_types)) }),
  );
  // With no endpoint, no message is made (nor the events' data read).
  const taken = (endpoints.length === 0 ? [] : events)
    .flatMap((event) =>
      messagesOf({ id: Number(event.id), type: event.type, data: event.data, createdMs: Number(event.created_ms) }),
    )
    .map((message) => ({ message, endpoints: endpoints.filter((e) => e.types.has(message.type)) }))
    .filter((t) => t.endpoints.length > 0);
  if (taken.length > 0) {
    const deliveries = taken.flatMap(({ message, endpoints }) => endpoints.map((endpoint) => ({ message, endpoint })));
    const rows = await enqueue(
      trx,
      taken.map((t) => t.message),
      deliveries.map(({ message, endpoint }, i) => ({
        messageId: message.id,
        endpointId: endpoint.id,
        due: i < lease.limit ? lease.until : now,
      })),
      now,
    );
    // RETURNING gives no order: each row is matched to its delivery by message and endpoint.
    const made = new Map(deliveries.map((d) => [`${d.message.id} ${d.endpoint.id}`, d]));
    page.claimed = rows
      .filter((row) => Number(row.next_attempt_ms) === lease.until)
      .map((row) => {
        const { message, endpoint } = made.get(`${row.message_id} ${row.endpoint_id}`)!;
        return { id: row.id, attempts: 0, messageId: message.id, body: message.body, ...signing(endpoint, now) };
      });
    page.leftDue = deliveries.length > lease.limit;
  }
  await trx
    .updateTable('webhook_fan_out')
    .set({ last_event_id: Number(events.at(-1)!.id) })
    .where('id', '=', 1)
    .execute();
  return page;
}

/** What a round claimed: due deliveries made before it, and its fan-out's page. */
export interface RoundClaims {
  others: ClaimedDelivery[];
  page: FanOutPage;
}

/**
 * A round's claims in `trx` under `lease`: when other deliveries may be due (retries,
 * redeliveries, what a fan-out left due), those first, oldest first, since new deliveries taking
 * the room would leave them waiting while new events keep coming; then a page of events fanned out,
 * its new deliveries claimed in the room left.
 */
export async function claimRound(
  trx: Kysely<Database>,
  db: Db,
  now: number,
  lease: Lease,
  othersMayBeDue: boolean,
): Promise<RoundClaims> {
  const others = othersMayBeDue && lease.limit > 0 ? await claimDue(trx, db, now, lease) : [];
  const page = await fanOut(trx, db, now, { ...lease, limit: lease.limit - others.length });
  return { others, page };
}

/**
 * Fans out page after page while they come full, `fanOutPage` reading each; a short page ends it,
 * and the events committed meanwhile wait for the next round: chasing them kept a busy PostgreSQL
 * instance fanning out for seconds while nothing was claimed.
 */
export async function fanOutWhileFull(fanOutPage: () => Promise<number>, stopped: () => boolean): Promise<void> {
  while (!stopped() && (await fanOutPage()) === FAN_OUT_PAGE);
}

/**
 * Stores `messages` (one already stored is kept) and `deliveries` of them, each pending and due at
 * its time; answers their rows, in no particular order.
 */
async function enqueue(
  trx: Kysely<Database>,
  messages: readonly NewMessage[],
  deliveries: readonly { messageId: string; endpointId: number; due: number }[],
  now: number,
) {
  await trx
    .insertInto('webhook_messages')
    .values(messages.map((message) => ({ id: message.id, type: message.type, body: message.body, created_ms: now })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return trx
    .insertInto('webhook_deliveries')
    .values(
      deliveries.map((delivery) => ({
        message_id: delivery.messageId,
        endpoint_id: delivery.endpointId,
        state: 'pending' as const,
        next_attempt_ms: delivery.due,
        created_ms: now,
      })),
    )
    .returning(['id', 'message_id', 'endpoint_id', 'next_attempt_ms'])
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

/** Where a delivery to `endpoint` goes and the secrets that sign it at `now`. */
function signing(
  endpoint: Pick<
    Selectable<Database['webhook_endpoints']>,
    'id' | 'url' | 'secret' | 'previous_secret' | 'previous_expires_ms'
  >,
  now: number,
) {
  const { id, url, secret, previous_secret: previous, previous_expires_ms: previousExpires } = endpoint;
  // The old secret signs too until it expires (docs/webhooks.md#secrets).
  return { endpointId: id, url, secrets: previous && Number(previousExpires) > now ? [secret, previous] : [secret] };
}

/**
 * Claims in `trx` up to `lease.limit` due deliveries of enabled endpoints for one attempt each: their
 * due time moves to `lease.until`, past the attempt's timeout.
 */
export async function claimDue(trx: Kysely<Database>, db: Db, now: number, lease: Lease): Promise<ClaimedDelivery[]> {
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
        .limit(lease.limit),
    ).execute()
  ).map((row) => row.id);
  if (ids.length === 0) return [];
  await trx.updateTable('webhook_deliveries').set({ next_attempt_ms: lease.until }).where('id', 'in', ids).execute();
  const due = await trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
    .select(['d.id as delivery_id', 'd.attempts', 'd.message_id', 'm.body'])
    .select(['e.id', 'e.url', 'e.secret', 'e.previous_secret', 'e.previous_expires_ms'])
    .where('d.id', 'in', ids)
    .execute();
  return due.map((d) => ({
    id: d.delivery_id,
    attempts: d.attempts,
    messageId: d.message_id,
    body: d.body,
    ...signing(d, now),
  }));
}
