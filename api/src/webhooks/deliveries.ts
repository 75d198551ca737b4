// Deliveries (docs/webhooks.md#delivery): the outcome of each attempt and what follows from it (the
// retry schedule, Retry-After, an endpoint gone or failing for days), and what an admin does with
// them: read an endpoint's log, deliver one message again, replay the failed ones since a time, send
// a test event.
import crypto from 'node:crypto';
import {
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookDeliveryQuery,
} from '@veritas/shared/domain';
import { recordAudit, SYSTEM, type AuditBy, type AuditTarget } from '../audit/trail';
import type { Kysely } from 'kysely';
import { isoOfMs, MAX_SERIAL_ID, serialIdOf, type Database, type Db } from '../db/schema';
import { NotFound } from '../http-errors';
import { endpointRow } from './endpoints';
import type { ClaimedDelivery } from './outbox';
import type { Attempt } from './send';

/**
 * The waits after each failed attempt (docs/webhooks.md#delivery): at once, then 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 14 h, 20 h, 24 h; after the last, the delivery has failed.
 */
export const RETRY_SCHEDULE_MS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000);
/** An endpoint whose every attempt failed for this long is disabled. */
export const FAILING_DISABLE_MS = 5 * 24 * 60 * 60 * 1000;
/** The longest Retry-After honoured. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export interface RetryPolicy {
  scheduleMs: readonly number[];
  failingDisableMs: number;
}

/** A wait of the schedule, ±20% at random, so retries of many deliveries do not come at once. */
const jittered = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

/** An attempt made: the delivery it was of, what came of it, when it started, and until when its claim held. */
export interface AttemptMade {
  delivery: ClaimedDelivery;
  attempt: Attempt;
  at: number;
  claimedUntil: number;
}

const succeeded = ({ attempt }: AttemptMade) =>
  attempt.status !== null && attempt.status >= 200 && attempt.status < 300;

/**
 * Records a round's attempts and what follows from them in `trx`, the round's transaction (one per
 * round, not per attempt: on SQLite every transaction waits for the one writer the scans need too).
 */
export async function recordAttempts(
  trx: Kysely<Database>,
  db: Db,
  made: readonly AttemptMade[],
  policy: RetryPolicy,
): Promise<void> {
  if (made.length === 0) return;
  const ok = made.filter(succeeded);
  const failed = made.filter((m) => !succeeded(m));
  await trx
    .insertInto('webhook_attempts')
    .values(
      made.map(({ delivery, attempt, at }) => ({
        delivery_id: delivery.id,
        at_ms: at,
        status: attempt.status,
        latency_ms: attempt.latencyMs,
        response: attempt.response,
      })),
    )
    .execute();
  if (ok.length > 0) {
    await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({ state: 'succeeded', attempts: eb('attempts', '+', 1) }))
      .where(
        'id',
        'in',
        ok.map((m) => m.delivery.id),
      )
      .execute();
    await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since_ms: null })
      .where('id', 'in', [...new Set(ok.map((m) => m.delivery.endpointId))])
      .where('failing_since_ms', 'is not', null)
      .execute();
  }
  for (const { delivery, attempt, at } of failed) {
    const now = at + attempt.latencyMs;
    const gone = attempt.status === 410;
    const attempts = delivery.attempts + 1;
    const wait = policy.scheduleMs[attempts - 1];
    const retryAfter =
      (attempt.status === 429 || attempt.status === 503) && attempt.retryAfterMs !== null
        ? Math.min(attempt.retryAfterMs, MAX_RETRY_AFTER_MS)
        : 0;
    await trx
      .updateTable('webhook_deliveries')
      .set(
        gone || wait === undefined
          ? { state: 'failed', attempts }
          : { attempts, next_attempt_ms: now + Math.max(jittered(wait), retryAfter) },
      )
      .where('id', '=', delivery.id)
      .execute();
    await endpointFailed(trx, db, delivery.endpointId, now, gone, policy);
  }
}

/** An endpoint's attempt failed: its failing streak starts, or (410, or failing for days) it is disabled. */
async function endpointFailed(
  trx: Kysely<Database>,
  db: Db,
  endpointId: number,
  now: number,
  gone: boolean,
  policy: RetryPolicy,
): Promise<void> {
  const endpoint = await trx
    .selectFrom('webhook_endpoints')
    .select(['url', 'enabled', 'failing_since_ms'])
    .where('id', '=', endpointId)
    .executeTakeFirst();
  if (!endpoint) return;
  const failingSince = Number(endpoint.failing_since_ms ?? now);
  const failing = now - failingSince >= policy.failingDisableMs;
  if (endpoint.enabled === 1 && (gone || failing)) {
    await trx
      .updateTable('webhook_endpoints')
      .set({ enabled: 0, disabled_reason: gone ? 'gone' : 'failing', disabled_ms: now, failing_since_ms: failingSince })
      .where('id', '=', endpointId)
      .execute();
    await recordAudit(trx, db, SYSTEM, {
      action: 'webhook.disabled',
      outcome: 'success',
      target: { kind: 'webhook', id: endpointId, label: endpoint.url },
      details: {
        reason: gone
          ? 'the endpoint answered 410 Gone'
          : `every attempt failed since ${new Date(failingSince).toISOString()}`,
      },
    });
  } else if (endpoint.failing_since_ms === null) {
    await trx.updateTable('webhook_endpoints').set({ failing_since_ms: now }).where('id', '=', endpointId).execute();
  }
}

/** The attempts shown with each delivery of the log, newest first. */
const ATTEMPTS_SHOWN = 10;

/** A page of an endpoint's deliveries, newest first, each with its latest attempts. */
export async function deliveryPage(
  db: Db,
  endpointId: number,
  query: WebhookDeliveryQuery,
): Promise<WebhookDeliveryPage> {
  await endpointRow(db.kysely, endpointId);
  const limit = Number(query.limit ?? 50);
  const rows = await db.kysely
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
    .select(['d.id', 'd.message_id', 'm.type', 'd.created_ms', 'd.state', 'd.next_attempt_ms'])
    .where('d.endpoint_id', '=', endpointId)
    .$if(Boolean(query.state), (q) => q.where('d.state', '=', query.state as 'pending'))
    .$if(Boolean(query.after), (q) => q.where('d.id', '<', Number(query.after)))
    .orderBy('d.id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const attempts =
    page.length === 0
      ? []
      : await db.kysely
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            page.map((row) => row.id),
          )
          .orderBy('id', 'desc')
          .execute();
  const deliveries = page.map((row): WebhookDelivery => ({
    id: row.id,
    messageId: row.message_id,
    type: row.type,
    createdAt: isoOfMs(row.created_ms),
    state: row.state,
    nextAttemptAt: row.state === 'pending' ? isoOfMs(row.next_attempt_ms) : null,
    attempts: attempts
      .filter((a) => a.delivery_id === row.id)
      .slice(0, ATTEMPTS_SHOWN)
      .map((a) => ({ at: isoOfMs(a.at_ms), status: a.status, latencyMs: a.latency_ms, response: a.response })),
  }));
  return { deliveries, next: rows.length > limit ? String(page.at(-1)!.id) : null };
}

/** A delivery with its message and its endpoint's id and address; undefined when `id` names none. */
async function findDelivery(db: Db, id: number) {
  if (id > MAX_SERIAL_ID) return undefined;
  return db.kysely
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.message_id', 'd.endpoint_id', 'e.url'])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

/** What a refused redelivery's audit entry names: the endpoint of the delivery its path names. */
export async function deliveryTarget(id: unknown, db: Db): Promise<AuditTarget | null> {
  const serial = serialIdOf(id);
  if (serial === null) return null;
  const delivery = await findDelivery(db, serial);
  return delivery
    ? { kind: 'webhook', id: delivery.endpoint_id, label: delivery.url }
    : { kind: 'webhook', label: `delivery #${serial}` };
}

/** Delivers a message to its endpoint again, now, whatever became of it (the same webhook-id). */
export async function redeliver(db: Db, id: number, by: AuditBy): Promise<void> {
  const delivery = await findDelivery(db, id);
  if (!delivery) throw new NotFound('No delivery has that id.');
  await db.transaction(async (trx) => {
    await trx
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', next_attempt_ms: Date.now() })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, db, by, {
      action: 'webhook.redelivered',
      outcome: 'success',
      target: { kind: 'webhook', id: delivery.endpoint_id, label: delivery.url },
      details: { messageId: delivery.message_id },
    });
  });
}

/** Delivers again, now, every failed delivery of the endpoint made since `sinceMs`; answers how many. */
export async function replayFailed(db: Db, endpointId: number, sinceMs: number, by: AuditBy): Promise<number> {
  const endpoint = await endpointRow(db.kysely, endpointId);
  return db.transaction(async (trx) => {
    const result = await trx
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', next_attempt_ms: Date.now() })
      .where('endpoint_id', '=', endpointId)
      .where('state', '=', 'failed')
      .where('created_ms', '>=', sinceMs)
      .executeTakeFirst();
    const replayed = Number(result.numUpdatedRows);
    await recordAudit(trx, db, by, {
      action: 'webhook.replayed',
      outcome: 'success',
      target: { kind: 'webhook', id: endpointId, label: endpoint.url },
      details: { since: new Date(sinceMs).toISOString(), replayed },
    });
    return replayed;
  });
}

/** Queues the test event to one endpoint, whatever it subscribed to; answers its message id. */
export async function sendTestEvent(db: Db, endpointId: number): Promise<string> {
  await endpointRow(db.kysely, endpointId);
  const now = Date.now();
  const id = `msg_test_${crypto.randomUUID()}`;
  const body = JSON.stringify({
    type: WEBHOOK_TEST_EVENT,
    timestamp: new Date(now).toISOString(),
    data: { endpointId, message: 'A test event sent from the Integrations screen.' },
  });
  await db.transaction(async (trx) => {
    await trx.insertInto('webhook_messages').values({ id, type: WEBHOOK_TEST_EVENT, body, created_ms: now }).execute();
    await trx
      .insertInto('webhook_deliveries')
      .values({ message_id: id, endpoint_id: endpointId, state: 'pending', next_attempt_ms: now, created_ms: now })
      .execute();
  });
  return id;
}
