// Integrations (docs/integrations.md): the API keys an order system calls /veritas/api/v1/ with.
// A key is an access token (as the deploy tokens are, ./registry.ts) whose scopes name what it may
// call; its `scope` is those scopes joined by spaces, as OAuth 2.0 writes a scope list. The
// shipments it sends in are the upload's rows (./upload.ts), as JSON items or as the CSV itself.
import { Type, type Static } from '@sinclair/typebox';
import { Choice, Day, OneOf, Text } from './fields';
import { UploadResult } from './upload';

/** What a key may call: `<capability>:<target>`, as a deploy token's `deploy:<remote>`. */
export const API_KEY_SCOPES = ['shipments:write', 'records:read', 'cases:read', 'cases:write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What each scope allows, as the Integrations screen names it. */
export const API_KEY_SCOPE_LABELS: Readonly<Record<ApiKeyScope, string>> = {
  'shipments:write': 'Send shipments',
  'records:read': 'Read records',
  'cases:read': 'Read cases',
  'cases:write': 'Resolve cases',
};

/** The scopes of a key's `scope` text. */
export const scopesOf = (scope: string): string[] => scope.split(' ').filter(Boolean);

export const ApiKeyCreatePayload = Type.Object({
  label: Text({ missing: 'Give the key a label.' }, { maxLength: 100 }),
  scopes: Type.Array(
    OneOf(API_KEY_SCOPES, {
      missing: 'Choose what the key may call.',
      enum: `A scope is one of ${API_KEY_SCOPES.join(', ')}.`,
    }),
    {
      minItems: 1,
      maxItems: API_KEY_SCOPES.length,
      uniqueItems: true,
      errorMessages: {
        missing: 'Choose what the key may call.',
        minItems: 'Choose what the key may call.',
        maxItems: 'Name each scope once.',
        uniqueItems: 'Name each scope once.',
      },
    },
  ),
  /** The last day the key works, YYYY-MM-DD (it ends at the end of that day, UTC). */
  expiresOn: Day({
    missing: 'Choose when the key expires.',
    pattern: 'Write the expiry as YYYY-MM-DD.',
    format: 'Write the expiry as a day of the calendar.',
  }),
});
export type ApiKeyCreatePayload = Static<typeof ApiKeyCreatePayload>;

/**
 * The columns of a shipment, as the upload's CSV header names them (docs/csv.md#columns), in the
 * order the API writes a JSON body's items as CSV rows.
 */
export const SHIPMENT_COLUMNS = [
  'tracking_id',
  'hub_code',
  'device_type',
  'device_brand',
  'device_model_name',
  'is_blindpick',
  'blind_brand',
  'blind_model',
  'created_date',
] as const;
export type ShipmentColumn = (typeof SHIPMENT_COLUMNS)[number];

/**
 * The longest text a field of a JSON item may hold: far above every column's own limit, whose rule
 * then reports the row (docs/csv.md#row-errors), and short enough that an item is always one row.
 */
export const MAX_SHIPMENT_TEXT = 10_000;

/**
 * A field of an item: the CSV cell's text, or null (an empty cell); is_blindpick also true or false.
 * One JSON type list rather than a union (anyOf), so that a refusal names the one rule broken.
 */
const ShipmentCell = <T = string | null>(column: ShipmentColumn, description: string, alsoBoolean = false) =>
  Type.Optional(
    Type.Unsafe<T>({
      type: alsoBoolean ? ['string', 'boolean', 'null'] : ['string', 'null'],
      maxLength: MAX_SHIPMENT_TEXT,
      description,
      errorMessages: {
        missing: `${column} must be text${alsoBoolean ? ', true, false' : ''} or null.`,
        maxLength: `${column} may be at most ${MAX_SHIPMENT_TEXT.toLocaleString('en-US')} characters.`,
      },
    }),
  );

/** One row of a shipment sent as JSON: its fields are the CSV's columns, checked by the same rules. */
export const ShipmentItem = Type.Object(
  {
    tracking_id: ShipmentCell('tracking_id', 'Required by the row’s rules: 1–64 of A–Z a–z 0–9 - _.'),
    hub_code: ShipmentCell('hub_code', 'Required by the row’s rules: the code of a hub.'),
    device_type: ShipmentCell('device_type', 'smarttv, laptop, tablet, mobile or truewireless, or empty.'),
    device_brand: ShipmentCell('device_brand', 'At most 128 characters, kept as sent.'),
    device_model_name: ShipmentCell('device_model_name', 'At most 128 characters, kept as sent.'),
    is_blindpick: ShipmentCell<string | boolean | null>(
      'is_blindpick',
      'true, false, 1, 0, yes or no (text, or true or false); empty or absent is false.',
      true,
    ),
    blind_brand: ShipmentCell('blind_brand', 'At most 128 characters, kept as sent.'),
    blind_model: ShipmentCell('blind_model', 'At most 128 characters, kept as sent.'),
    created_date: ShipmentCell('created_date', 'An ISO 8601 date or date-time; empty is the time of the call.'),
  },
  {
    description:
      'A row of the upload’s CSV (docs/csv.md#columns): a field absent, null or empty is an empty cell; other fields are ignored.',
  },
);
export type ShipmentItem = Static<typeof ShipmentItem>;

export const ShipmentItems = Type.Array(ShipmentItem, {
  description: 'The rows, numbered from 1 in the result as the CSV’s rows are.',
});

/** The bodies of `POST api/v1/shipments/`, for the documentation: the call reads either as a stream. */
export const ShipmentBody = {
  content: {
    'application/json': { schema: ShipmentItems },
    'text/csv': {
      schema: Type.String({ description: 'Exactly the upload’s CSV file (docs/csv.md#file-format), UTF-8.' }),
    },
  },
};

/** What `Idempotency-Key` may be: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = '^[!-~]{1,255}$';
const idempotencyKeyMessage = 'Send an Idempotency-Key header of 1 to 255 visible ASCII characters.';

export const ShipmentHeaders = Type.Object({
  'idempotency-key': Type.String({
    pattern: IDEMPOTENCY_KEY_PATTERN,
    description:
      'Names the call: the same key with the same body answers the same result and stores nothing again; with another body, 422.',
    errorMessages: { missing: idempotencyKeyMessage, pattern: idempotencyKeyMessage },
  }),
});

/** The id of a shipment sent through the API (a UUID derived from the key and its Idempotency-Key). */
const ShipmentId = Type.String({
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  errorMessages: { missing: 'A shipment id is a UUID.', pattern: 'A shipment id is a UUID.' },
});
export const ShipmentParams = Type.Object({ id: ShipmentId });

/** A batch too large to answer during its call: it is processed in the background. */
export const ShipmentJob = Type.Object({
  id: Type.String(),
  status: Type.Literal('processing'),
  poll: Type.String({ description: 'The path that answers its state: GET it until the status is done or failed.' }),
});
export type ShipmentJob = Static<typeof ShipmentJob>;

export const SHIPMENT_STATES = ['processing', 'done', 'failed'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATES)[number];

export const ShipmentState = Type.Object({
  id: Type.String(),
  status: Choice(SHIPMENT_STATES),
  /** Once done: what the call answers when it is processed during the call. */
  result: Type.Optional(UploadResult),
  error: Type.Optional(
    Type.Object(
      { status: Type.Integer(), detail: Type.String() },
      { description: 'Once failed: the status and message of the refusal or failure.' },
    ),
  ),
});
export type ShipmentState = Static<typeof ShipmentState>;
