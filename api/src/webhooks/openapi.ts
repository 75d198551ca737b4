// The OpenAPI document's `webhooks` section (OpenAPI 3.1): each message type a receiver may get,
// its body, the Standard Webhooks headers, and the answers that count (docs/webhooks.md).
import {
  CaseWebhookData,
  RecordWebhookData,
  ShipmentWebhookData,
  TestWebhookData,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_TEST_EVENT,
  WebhookMessageBody,
  type WebhookEventType,
} from '@veritas/shared/domain';

const dataOf = (type: string) =>
  type.startsWith('record.')
    ? RecordWebhookData
    : type.startsWith('case.')
      ? CaseWebhookData
      : type === 'shipment.ingested'
        ? ShipmentWebhookData
        : TestWebhookData;

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description,
});

const HEADERS = [
  header('webhook-id', 'The message’s id: the same in every attempt, so a receiver de-duplicates by it.'),
  header('webhook-timestamp', 'Seconds since the epoch when the attempt was signed.'),
  header(
    'webhook-signature',
    'Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per secret that signs (two during a rotation).',
  ),
];

export function webhookDocuments(): Record<string, unknown> {
  const types: [string, string][] = [
    ...Object.entries(WEBHOOK_EVENT_LABELS as Record<WebhookEventType, string>),
    [WEBHOOK_TEST_EVENT, 'The test event an admin sends from the Integrations screen'],
  ];
  return Object.fromEntries(
    types.map(([type, label]) => [
      type,
      {
        post: {
          summary: label,
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: WebhookMessageBody(type, dataOf(type)) } },
          },
          responses: {
            '2XX': { description: 'Received: the delivery succeeded.' },
            '410': { description: 'Gone: the endpoint is disabled.' },
            '429': { description: 'Retried no sooner than its Retry-After.' },
            '503': { description: 'Retried no sooner than its Retry-After.' },
            default: { description: 'Retried on the schedule.' },
          },
        },
      },
    ]),
  );
}
