// How an endpoint's delivery log words things (docs/screens.md#integrations): its heading and tools,
// its table while loading, empty or failed, and what Redeliver and Replay failed come to. Shared by
// the log's pieces; webhook-text.tsx words the deliveries themselves.
import type { WebhookDelivery, WebhookEndpoint } from '@veritas/shared/domain';

export const LOG_MESSAGES = {
  heading: (endpoint: WebhookEndpoint) => `Delivery log of ${endpoint.url}`,
  caption: (endpoint: WebhookEndpoint) => `Deliveries to ${endpoint.url}`,
  loading: 'Loading deliveries…',
  empty: 'No deliveries yet.',
  emptyFiltered: 'No deliveries in this state.',
  loadFailed: 'Failed to load the deliveries',
  moreFailed: 'Failed to load more deliveries',
  retry: 'Retry',
  refresh: 'Refresh',
  close: 'Close the delivery log',
  loadMore: 'Load more',
  loadingMore: 'Loading more…',
  noAttempt: 'None yet',
  redelivered: (delivery: WebhookDelivery) => `The message ${delivery.messageId} will be delivered again.`,
  redeliverFailed: 'The message could not be delivered again.',
  replayLabel: 'Replay failed since',
  replayHint: 'Every failed delivery of this endpoint made since that time (your time zone) is delivered again.',
  replayButton: 'Replay failed',
  replaying: 'Replaying…',
  replayMissing: 'Choose the time to replay from.',
  replayFailed: 'The failed messages could not be replayed.',
  attemptsShown: 'The latest ten attempts, newest first.',
} as const;
