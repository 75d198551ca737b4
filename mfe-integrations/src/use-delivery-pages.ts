// An endpoint's deliveries in a state ('' for every state), newest first, a page at a time. Read
// again every few seconds while a delivery's attempt is due soon, so a test event's outcome shows
// without a reload; the pages shown stay while another state's load.
import type { WebhookDeliveryPage, WebhookDeliveryState } from '@veritas/shared/domain';
import { keepPreviousData, useInfiniteQueryNow, type InfiniteData } from '@veritas/shared/query';
import { deliveriesQuery } from './api/webhooks';

/** While a pending delivery's attempt is due within this, the log is read again every POLL_MS. */
const DUE_SOON_MS = 60_000;
const POLL_MS = 3000;

const dueSoon = (data: InfiniteData<WebhookDeliveryPage> | undefined) =>
  Boolean(
    data?.pages.some((page) =>
      page.deliveries.some(
        (delivery) =>
          delivery.state === 'pending' &&
          (!delivery.nextAttemptAt || Date.parse(delivery.nextAttemptAt) - Date.now() < DUE_SOON_MS),
      ),
    ),
  );

export function useDeliveryPages(endpointId: number, state: WebhookDeliveryState | '') {
  return useInfiniteQueryNow({
    ...deliveriesQuery(endpointId, state),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (dueSoon(query.state.data) ? POLL_MS : false),
  });
}
