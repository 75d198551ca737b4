// Webhooks (docs/webhooks.md): the endpoints an admin registers, the events they receive, signed to
// the Standard Webhooks specification, and the delivery log of each endpoint.
import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, OneOf, Text } from './fields';

/** What an endpoint may receive, as each message's `type` names it. */
export const WEBHOOK_EVENT_TYPES = [
  'record.submitted',
  'record.flagged',
  'record.verified',
  'record.detached',
  'shipment.ingested',
  'case.opened',
  'case.assigned',
  'case.resolved',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The test event an admin sends from the screen: to one endpoint, whatever it subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Each event as the Integrations screen names it. */
export const WEBHOOK_EVENT_LABELS: Readonly<Record<WebhookEventType, string>> = {
  'record.submitted': 'Record submitted at the doorstep',
  'record.flagged': 'Record flagged at the doorstep',
  'record.verified': 'Record verified at the hub',
  'record.detached': 'Record detached at a return centre',
  'shipment.ingested': 'Shipment ingested',
  'case.opened': 'Case opened',
  'case.assigned': 'Case assigned',
  'case.resolved': 'Case resolved',
};

/** Why an endpoint is disabled: an admin's choice, a 410 answered by the receiver, or failing for days. */
export const WEBHOOK_DISABLED_REASONS = ['admin', 'gone', 'failing'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

const MAX_URL_LENGTH = 2000;

/** What an endpoint's address must look like, whatever the server's configuration allows of http://. */
export const WEBHOOK_URL_FORMAT = 'The address must be a URL such as https://example.com/webhooks.';

const endpointFields = {
  url: Text(
    {
      missing: 'Give the address the events are sent to.',
      maxLength: `An address is at most ${MAX_URL_LENGTH} characters.`,
      pattern: WEBHOOK_URL_FORMAT,
    },
    // http:// or https:// and a host, so a form can tell at once; the server then checks the scheme
    // its configuration allows and the address itself (api/src/webhooks/send.ts urlProblem).
    { maxLength: MAX_URL_LENGTH, pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#@]' },
  ),
  description: Type.Optional(
    Text(
      { missing: 'A description is text.', maxLength: 'A description is at most 200 characters.' },
      {
        minLength: 0,
        maxLength: 200,
      },
    ),
  ),
  eventTypes: Type.Array(
    OneOf(WEBHOOK_EVENT_TYPES, {
      missing: 'Choose the events the endpoint receives.',
      enum: `An event is one of ${WEBHOOK_EVENT_TYPES.join(', ')}; "{value}" is not.`,
    }),
    {
      minItems: 1,
      maxItems: WEBHOOK_EVENT_TYPES.length,
      uniqueItems: true,
      errorMessages: {
        missing: 'Choose the events the endpoint receives.',
        minItems: 'Choose the events the endpoint receives.',
        maxItems: 'Name each event once.',
        uniqueItems: 'Name each event once.',
      },
    },
  ),
  enabled: Type.Optional(Type.Boolean({ errorMessages: { missing: 'enabled is true or false.' } })),
};

export const WebhookEndpointPayload = Type.Object(endpointFields);
export type WebhookEndpointPayload = Static<typeof WebhookEndpointPayload>;

export const WebhookEndpoint = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  description: Type.String(),
  eventTypes: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledReason: Nullable(Type.String({ enum: [...WEBHOOK_DISABLED_REASONS] })),
  /** When it was disabled by the server (410, or failing for days); null otherwise. */
  disabledAt: Nullable(Type.String({ format: 'date-time' })),
  /** Since when every attempt failed; null when the last one succeeded or none was made. */
  failingSince: Nullable(Type.String({ format: 'date-time' })),
  /** Until when the secret before the last rotation still signs too; null when there is none. */
  previousSecretExpiresAt: Nullable(Type.String({ format: 'date-time' })),
  createdBy: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookEndpointList = Type.Object({ endpoints: Type.Array(WebhookEndpoint) });
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

/** An endpoint just made, or its secret rotated: `secret` (whsec_…) is shown this once. */
export const WebhookSecretAnswer = Type.Object({ endpoint: WebhookEndpoint, secret: Type.String() });
export type WebhookSecretAnswer = Static<typeof WebhookSecretAnswer>;

export const WebhookEndpointParams = Type.Object({ id: Id('Name an endpoint by its id.') });
export const WebhookDeliveryParams = Type.Object({ id: Id('Name a delivery by its id.') });

/** One attempt to deliver a message: what the receiver answered, or why nothing came. */
export const WebhookAttempt = Type.Object({
  at: Type.String({ format: 'date-time' }),
  /** The HTTP status answered; null when none came (refused, timed out, unreachable). */
  status: Nullable(Type.Integer()),
  latencyMs: Type.Integer(),
  /** The first 500 characters of the answer's body, or what went wrong. */
  response: Type.String(),
});
export type WebhookAttempt = Static<typeof WebhookAttempt>;

/** pending: an attempt is due; succeeded: a 2xx came; failed: every retry failed, or the endpoint is gone. */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  /** The message's webhook-id: the same in every attempt, so a receiver de-duplicates by it. */
  messageId: Type.String(),
  type: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  state: Type.String({ enum: [...WEBHOOK_DELIVERY_STATES] }),
  /** When the next attempt is due (pending only). */
  nextAttemptAt: Nullable(Type.String({ format: 'date-time' })),
  /** Newest first. */
  attempts: Type.Array(WebhookAttempt),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

const MAX_LOG_LIMIT = 100;
const logLimitMessage = `limit must be a whole number from 1 to ${MAX_LOG_LIMIT}.`;
const afterMessage = 'after must be the next value of an earlier page.';

export const WebhookDeliveryQuery = Type.Object({
  state: Type.Optional(
    Type.Unsafe<WebhookDeliveryState | ''>({
      type: 'string',
      enum: ['', ...WEBHOOK_DELIVERY_STATES],
      errorMessages: {
        missing: `state is one of ${WEBHOOK_DELIVERY_STATES.join(', ')}.`,
        enum: `state is one of ${WEBHOOK_DELIVERY_STATES.join(', ')}.`,
      },
    }),
  ),
  after: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,15}$', errorMessages: { missing: afterMessage, pattern: afterMessage } }),
  ),
  limit: Type.Optional(
    Type.String({
      pattern: '^([1-9]\\d?|100)$',
      errorMessages: { missing: logLimitMessage, pattern: logLimitMessage },
    }),
  ),
});
export type WebhookDeliveryQuery = Static<typeof WebhookDeliveryQuery>;

/** A page of an endpoint's deliveries, newest first; `next` reads the page after, null at the last. */
export const WebhookDeliveryPage = Type.Object({
  deliveries: Type.Array(WebhookDelivery),
  next: Nullable(Type.String()),
});
export type WebhookDeliveryPage = Static<typeof WebhookDeliveryPage>;

export const WebhookReplayPayload = Type.Object({
  since: Type.String({
    format: 'date-time',
    errorMessages: {
      missing: 'Give the time to replay from, such as 2026-11-27T09:30:00Z.',
      format: 'Give the time to replay from, such as 2026-11-27T09:30:00Z.',
    },
  }),
});
export type WebhookReplayPayload = Static<typeof WebhookReplayPayload>;
export const WebhookReplayAnswer = Type.Object({ replayed: Type.Integer() });
export type WebhookReplayAnswer = Static<typeof WebhookReplayAnswer>;

/** The test event queued: its message's id. */
export const WebhookTestAnswer = Type.Object({ messageId: Type.String() });
export type WebhookTestAnswer = Static<typeof WebhookTestAnswer>;

// What a receiver gets: the body of every message (Standard Webhooks' `type`, `timestamp`, `data`),
// thin: ids and the fields the change set, never a whole record. The OpenAPI document's `webhooks`
// section describes each type with these.
const userName = Nullable(Type.String());

export const RecordWebhookData = Type.Object({
  recordId: Type.Integer(),
  trackingId: Type.String(),
  hubCode: Nullable(Type.String()),
  /** What the step set: the submission's, the hub's or the return centre's fields. */
  changed: Type.Object({
    submitTime: Type.Optional(Nullable(Type.String())),
    submittedBy: Type.Optional(userName),
    submittedDeviceName: Type.Optional(Nullable(Type.String())),
    submittedManufacturer: Type.Optional(Nullable(Type.String())),
    result: Type.Optional(Nullable(Type.String())),
    verifyTime: Type.Optional(Nullable(Type.String())),
    verifiedBy: Type.Optional(userName),
    verifyTimeRc: Type.Optional(Nullable(Type.String())),
    verifiedByRc: Type.Optional(userName),
  }),
});
export type RecordWebhookData = Static<typeof RecordWebhookData>;

export const ShipmentWebhookData = Type.Object({
  uploadId: Type.String(),
  fileName: Type.String(),
  stored: Type.Integer(),
  duplicates: Type.Integer(),
  refused: Type.Integer(),
});
export type ShipmentWebhookData = Static<typeof ShipmentWebhookData>;

export const CaseWebhookData = Type.Object({
  caseId: Type.Integer(),
  trackingId: Type.String(),
  reason: Type.String(),
  state: Type.String(),
  queue: Type.String(),
  assignee: userName,
  disposition: Nullable(Type.String()),
  dueAt: Type.String(),
  version: Type.Integer(),
});
export type CaseWebhookData = Static<typeof CaseWebhookData>;

export const TestWebhookData = Type.Object({ endpointId: Type.Integer(), message: Type.String() });

/** A message's body, for `data` of each kind. */
export const WebhookMessageBody = <T extends ReturnType<typeof Type.Object>>(type: string, data: T) =>
  Type.Object({
    type: Type.Literal(type),
    timestamp: Type.String({ format: 'date-time' }),
    data,
  });
