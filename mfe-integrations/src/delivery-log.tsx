// An endpoint's delivery log (docs/screens.md#integrations): its deliveries newest first, filtered
// by state, a page at a time (Load more), each with its latest attempts to expand, Redeliver, and
// Replay failed since a time. Read again every few seconds while a delivery's attempt is due soon
// (use-delivery-pages.ts), so a test event's outcome shows without a reload.
import { BusyButton, serverMessage } from '@veritas/shared';
import { WEBHOOK_DELIVERY_STATES, type WebhookDeliveryState, type WebhookEndpoint } from '@veritas/shared/domain';
import { MorePages } from '@veritas/shared/table';
import { useId, useMemo, useState, type Ref } from 'react';
import { DeliveriesTable } from './deliveries-table';
import { LOG_MESSAGES } from './delivery-log-text';
import { ReplayForm } from './replay-form';
import { useDeliveryPages } from './use-delivery-pages';
import { DELIVERY_STATE_LABELS } from './webhook-text';

export interface DeliveryLogProps {
  endpoint: WebhookEndpoint;
  /** The panel's id: the row's Delivery log button controls it. */
  id: string;
  /** The panel's heading, which takes the focus when the panel opens. */
  headingRef?: Ref<HTMLHeadingElement>;
  onClose(): void;
}

export function DeliveryLog({ endpoint, id, headingRef, onClose }: DeliveryLogProps) {
  const headingId = useId();
  const stateId = useId();
  const [state, setState] = useState<WebhookDeliveryState | ''>('');
  const deliveryPages = useDeliveryPages(endpoint.id, state);
  const { data, error, isPending, isPlaceholderData, isFetching, isFetchNextPageError, refetch } = deliveryPages;
  const deliveries = useMemo(() => data?.pages.flatMap((page) => page.deliveries) ?? [], [data]);

  const loadError = error && !isFetchNextPageError ? (serverMessage(error) ?? LOG_MESSAGES.loadFailed) : null;

  return (
    <section id={id} className="ig-log" aria-labelledby={headingId}>
      <div className="ig-log__head">
        <h3 ref={headingRef} id={headingId} className="ig-log__title" tabIndex={-1}>
          {LOG_MESSAGES.heading(endpoint)}
        </h3>
        <button type="button" className="vx-btn ig-action" onClick={onClose}>
          {LOG_MESSAGES.close}
        </button>
      </div>

      <div className="ig-log__tools">
        <div className="vx-field ig-log__filter">
          <label className="vx-label" htmlFor={stateId}>
            State
          </label>
          <select
            id={stateId}
            className="vx-select"
            value={state}
            onChange={(event) => setState(event.target.value as WebhookDeliveryState | '')}
          >
            <option value="">All states</option>
            {WEBHOOK_DELIVERY_STATES.map((value) => (
              <option key={value} value={value}>
                {DELIVERY_STATE_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <BusyButton className="vx-btn" busy={isFetching} onClick={() => void refetch()}>
          {LOG_MESSAGES.refresh}
        </BusyButton>
        <ReplayForm endpoint={endpoint} />
      </div>

      <DeliveriesTable
        endpoint={endpoint}
        logId={id}
        deliveries={deliveries}
        loading={isPending}
        error={loadError}
        showingPrevious={isPlaceholderData}
        filtered={state !== ''}
      />
      {loadError && (
        <button type="button" className="vx-btn ig-retry" onClick={() => void refetch()}>
          {LOG_MESSAGES.retry}
        </button>
      )}

      {data && (
        <MorePages
          className="ig-log__more"
          query={deliveryPages}
          pages={data.pages.length}
          texts={{ more: LOG_MESSAGES.loadMore, loading: LOG_MESSAGES.loadingMore }}
          failure={(failure) => serverMessage(failure) ?? LOG_MESSAGES.moreFailed}
        />
      )}
    </section>
  );
}
