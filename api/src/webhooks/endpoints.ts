// Webhook endpoints (docs/webhooks.md#the-calls): made, changed, deleted and their secrets rotated
// by an admin, each change audited in its transaction. A secret is `whsec_` and 32 random bytes in
// base64, as the Standard Webhooks specification writes one, shown once; it is kept as is, since
// signing reads it.
import crypto from 'node:crypto';
import {
  WEBHOOK_EVENT_TYPES,
  scopesOf,
  type WebhookEndpoint,
  type WebhookEndpointPayload,
  type WebhookSecretAnswer,
} from '@veritas/shared/domain';
import type { Kysely, Selectable } from 'kysely';
import { recordAudit, type AuditBy } from '../audit/trail';
import { isoOfMs, MAX_SERIAL_ID, type Database, type Db, type WebhookEndpointsTable } from '../db/schema';
import { BadRequest, NotFound } from '../http-errors';
import { RefusedAddress, resolveEndpoint, urlProblem, type SendPolicy } from './send';

/** How long the secret before a rotation still signs beside the new one. */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;

const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64')}`;

type EndpointRow = Selectable<WebhookEndpointsTable> & { created_by: string | null };

function endpointOf(row: EndpointRow, now = Date.now()): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: scopesOf(row.event_types),
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_reason === 'admin' ? null : isoOfMs(row.disabled_ms),
    failingSince: isoOfMs(row.failing_since_ms),
    previousSecretExpiresAt:
      row.previous_secret && Number(row.previous_expires_ms) > now ? isoOfMs(row.previous_expires_ms) : null,
    createdBy: row.created_by ?? 'a deleted user',
    createdAt: isoOfMs(row.created_ms),
  };
}

const endpointRows = (kysely: Kysely<Database>) =>
  kysely
    .selectFrom('webhook_endpoints as e')
    .leftJoin('users as u', 'u.id', 'e.created_by_id')
    .selectAll('e')
    .select('u.username as created_by');

export async function listEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  const rows = await endpointRows(db.kysely).orderBy('e.id', 'desc').execute();
  return rows.map((row) => endpointOf(row));
}

/** How a refused call's audit entry names the endpoint its path names: by its address (targetOfPathParam). */
export async function endpointLabel(id: number, db: Db): Promise<string | undefined> {
  return (await db.kysely.selectFrom('webhook_endpoints').select('url').where('id', '=', id).executeTakeFirst())?.url;
}

export async function endpointRow(kysely: Kysely<Database>, id: number): Promise<EndpointRow> {
  const row = id <= MAX_SERIAL_ID ? await endpointRows(kysely).where('e.id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw new NotFound('No endpoint has that id.');
  return row;
}

/** 400 for an address the server would not send to: its form, then where its host resolves now. */
async function checkUrl(url: string, policy: Pick<SendPolicy, 'allowLocal'>): Promise<void> {
  const problem = urlProblem(url, policy);
  if (problem) throw new BadRequest('url', problem);
  try {
    await resolveEndpoint(new URL(url).hostname, policy);
  } catch (error) {
    throw new BadRequest(
      'url',
      error instanceof RefusedAddress ? error.message : `${new URL(url).hostname} could not be resolved.`,
    );
  }
}

/** The event types in WEBHOOK_EVENT_TYPES' order, space-separated. */
const eventTypesOf = (types: readonly string[]) => WEBHOOK_EVENT_TYPES.filter((type) => types.includes(type)).join(' ');

/**
 * An endpoint as its audit entries record it (docs/audit.md): its address, events in the stored
 * order (so that the same events sent in another order are no change) and whether it is enabled.
 */
const audited = (url: string, eventTypes: string, enabled: boolean) => ({
  url,
  eventTypes: scopesOf(eventTypes),
  enabled,
});

export async function createEndpoint(
  db: Db,
  input: WebhookEndpointPayload,
  createdById: number,
  by: AuditBy,
  policy: Pick<SendPolicy, 'allowLocal'>,
): Promise<WebhookSecretAnswer> {
  await checkUrl(input.url, policy);
  const secret = newSecret();
  const enabled = input.enabled ?? true;
  const id = await db.transaction(async (trx) => {
    const { id } = await trx
      .insertInto('webhook_endpoints')
      .values({
        url: input.url,
        description: input.description ?? '',
        event_types: eventTypesOf(input.eventTypes),
        enabled: enabled ? 1 : 0,
        disabled_reason: enabled ? null : 'admin',
        secret,
        created_by_id: createdById,
        created_ms: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, db, by, {
      action: 'webhook.created',
      outcome: 'success',
      target: { kind: 'webhook', id, label: input.url },
      details: { after: audited(input.url, eventTypesOf(input.eventTypes), enabled) },
    });
    return id;
  });
  return { endpoint: endpointOf(await endpointRow(db.kysely, id)), secret };
}

export async function updateEndpoint(
  db: Db,
  id: number,
  input: WebhookEndpointPayload,
  by: AuditBy,
  policy: Pick<SendPolicy, 'allowLocal'>,
): Promise<WebhookEndpoint> {
  const before = await endpointRow(db.kysely, id);
  if (input.url !== before.url) await checkUrl(input.url, policy);
  const enabled = input.enabled ?? before.enabled === 1;
  await db.transaction(async (trx) => {
    await trx
      .updateTable('webhook_endpoints')
      .set({
        url: input.url,
        description: input.description ?? before.description,
        event_types: eventTypesOf(input.eventTypes),
        enabled: enabled ? 1 : 0,
        // Enabling again starts afresh: no reason, no failing streak.
        ...(enabled
          ? { disabled_reason: null, disabled_ms: null, ...(before.enabled === 1 ? {} : { failing_since_ms: null }) }
          : before.enabled === 1
            ? { disabled_reason: 'admin' as const, disabled_ms: Date.now() }
            : {}),
      })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, db, by, {
      action: 'webhook.updated',
      outcome: 'success',
      target: { kind: 'webhook', id, label: input.url },
      details: {
        before: audited(before.url, before.event_types, before.enabled === 1),
        after: audited(input.url, eventTypesOf(input.eventTypes), enabled),
      },
    });
  });
  return endpointOf(await endpointRow(db.kysely, id));
}

/** Deletes an endpoint with its deliveries and their attempts (the messages stay for other endpoints). */
export async function deleteEndpoint(db: Db, id: number, by: AuditBy): Promise<void> {
  const before = await endpointRow(db.kysely, id);
  await db.transaction(async (trx) => {
    const deliveries = trx.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', id);
    await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
    await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
    await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    await recordAudit(trx, db, by, {
      action: 'webhook.deleted',
      outcome: 'success',
      target: { kind: 'webhook', id, label: before.url },
      details: { before: audited(before.url, before.event_types, before.enabled === 1) },
    });
  });
}

/** A new secret, shown once; the one before still signs beside it for PREVIOUS_SECRET_MS. */
export async function rotateSecret(db: Db, id: number, by: AuditBy): Promise<WebhookSecretAnswer> {
  const before = await endpointRow(db.kysely, id);
  const secret = newSecret();
  const expires = Date.now() + PREVIOUS_SECRET_MS;
  await db.transaction(async (trx) => {
    await trx
      .updateTable('webhook_endpoints')
      .set({ secret, previous_secret: before.secret, previous_expires_ms: expires })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, db, by, {
      action: 'webhook.secret-rotated',
      outcome: 'success',
      target: { kind: 'webhook', id, label: before.url },
      details: { previousSecretExpiresAt: new Date(expires).toISOString() },
    });
  });
  return { endpoint: endpointOf(await endpointRow(db.kysely, id)), secret };
}
