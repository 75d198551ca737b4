// How the Integrations screen words webhook endpoints and deliveries (docs/screens.md#integrations):
// events by their labels, an endpoint's status, a delivery's state and its attempts.
import { formatDateTime } from '@veritas/shared';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_TEST_EVENT,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@veritas/shared/domain';

/** A time as the screen shows it, with its instant for machines. */
export const When = ({ iso }: { iso: string }) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

/** An event as the screen names it: its label, the test event's, or the type itself when this console knows it not. */
export const eventName = (type: string) =>
  type === WEBHOOK_TEST_EVENT ? 'Test event' : (WEBHOOK_EVENT_LABELS[type as WebhookEventType] ?? type);

/** What an endpoint receives: its events' labels, in its order. */
export const eventsText = (types: readonly string[]) => types.map(eventName).join(', ');

/** Disabled by the server: a 410 answered, or every attempt failing for days. */
export const disabledByServer = (endpoint: WebhookEndpoint) =>
  !endpoint.enabled && (endpoint.disabledReason === 'gone' || endpoint.disabledReason === 'failing');

/** Why the server disabled it, in a few words (the status column and the section's notice). */
export function serverReason(endpoint: WebhookEndpoint): string {
  if (endpoint.disabledReason === 'gone') return 'the endpoint answered 410 Gone';
  return `failing since ${formatDateTime(endpoint.failingSince)}`;
}

/** The endpoint's status: Enabled, Disabled by an admin, or why and when the server disabled it. */
export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled) return <span className="ig-state ig-state--ok">Enabled</span>;
  if (!disabledByServer(endpoint)) return <span className="ig-state">Disabled by an admin</span>;
  return (
    <span className="ig-state ig-state--bad">
      Disabled: {serverReason(endpoint)}
      {endpoint.disabledAt && (
        <span className="ig-sub">
          {' '}
          on <When iso={endpoint.disabledAt} />
        </span>
      )}
    </span>
  );
}

/** The notice over the table: the endpoints the server disabled, each with why. */
export function disabledNoticeText(endpoints: readonly WebhookEndpoint[]): string {
  const count = endpoints.length;
  const list = endpoints.map((endpoint) => `${endpoint.url} (${serverReason(endpoint)})`).join('; ');
  return `${count} ${count === 1 ? 'endpoint' : 'endpoints'} disabled by the server: ${list}. Check the receiver, then enable the endpoint again: the deliveries that waited are sent then.`;
}

export const DELIVERY_STATE_LABELS = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' } as const;

export function DeliveryState({ state }: { state: string }) {
  const label = DELIVERY_STATE_LABELS[state as keyof typeof DELIVERY_STATE_LABELS] ?? state;
  const tone = state === 'succeeded' ? ' ig-state--ok' : state === 'failed' ? ' ig-state--bad' : '';
  return <span className={`ig-state${tone}`}>{label}</span>;
}

/** An attempt's outcome in short: its status (or No answer) and its latency, '200 · 42 ms'. */
export const attemptText = (attempt: WebhookAttempt) => `${attempt.status ?? 'No answer'} · ${attempt.latencyMs} ms`;

/** The start of an answer, for the log's table: its first `length` characters on one line. */
export function answerStart(response: string, length = 60): string {
  const line = response.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

/** How many messages a replay sends again. */
export const replayedText = (count: number) =>
  `${count} ${count === 1 ? 'message' : 'messages'} will be delivered again.`;
