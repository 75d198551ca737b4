// An endpoint's delivery log (docs/screens.md#integrations): its deliveries newest first, filtered
// by state, a page at a time (Load more), each with its latest attempts to expand, Redeliver, and
// Replay failed since a time. Read again every few seconds while a delivery's attempt is due soon,
// so a test event's outcome shows without a reload.
import { BusyButton, serverMessage, toast } from '@veritas/shared';
import {
  WEBHOOK_DELIVERY_STATES,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookDeliveryState,
  type WebhookEndpoint,
} from '@veritas/shared/domain';
import { keepPreviousData, useInfiniteQueryNow, type InfiniteData } from '@veritas/shared/query';
import { DataTable, MorePages, type Column } from '@veritas/shared/table';
import { useId, useMemo, useState, type FormEvent, type Ref } from 'react';
import { deliveriesQuery, useRedeliver, useReplayFailed } from './api/webhooks';
import {
  DELIVERY_STATE_LABELS,
  DeliveryState,
  When,
  answerStart,
  attemptText,
  eventName,
  replayedText,
} from './webhook-text';

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

const attemptsId = (logId: string, delivery: WebhookDelivery) => `${logId}-attempts-${delivery.id}`;

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
  const deliveryPages = useInfiniteQueryNow({
    ...deliveriesQuery(endpoint.id, state),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (dueSoon(query.state.data) ? POLL_MS : false),
  });
  const { data, error, isPending, isPlaceholderData, isFetching, isFetchNextPageError, refetch } = deliveryPages;
  const deliveries = useMemo(() => data?.pages.flatMap((page) => page.deliveries) ?? [], [data]);
  const redeliver = useRedeliver();
  const [redelivering, setRedelivering] = useState<ReadonlySet<number>>(new Set());
  const [actionError, setActionError] = useState<string | null>(null);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());

  const loadError = error && !isFetchNextPageError ? (serverMessage(error) ?? LOG_MESSAGES.loadFailed) : null;

  function toggle(delivery: WebhookDelivery) {
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(delivery.id)) next.add(delivery.id);
      return next;
    });
  }

  async function deliverAgain(delivery: WebhookDelivery) {
    setRedelivering((ids) => new Set(ids).add(delivery.id));
    setActionError(null);
    try {
      await redeliver.mutateAsync({ deliveryId: delivery.id, endpointId: endpoint.id });
      toast.success(LOG_MESSAGES.redelivered(delivery));
    } catch (failure) {
      setActionError(serverMessage(failure) ?? LOG_MESSAGES.redeliverFailed);
    } finally {
      setRedelivering((ids) => {
        const next = new Set(ids);
        next.delete(delivery.id);
        return next;
      });
    }
  }

  const columns: Column<WebhookDelivery>[] = [
    { header: 'Message', cell: (delivery) => delivery.messageId, rowHeader: true, className: 'ig-mono' },
    { header: 'Type', cell: (delivery) => eventName(delivery.type) },
    { header: 'Created', cell: (delivery) => <When iso={delivery.createdAt} /> },
    { header: 'State', cell: (delivery) => <DeliveryState state={delivery.state} /> },
    {
      header: 'Next attempt',
      cell: (delivery) => (delivery.nextAttemptAt ? <When iso={delivery.nextAttemptAt} /> : '—'),
    },
    {
      header: 'Last attempt',
      cell: (delivery) => {
        const [last] = delivery.attempts;
        if (!last) return LOG_MESSAGES.noAttempt;
        return (
          <>
            {attemptText(last)}
            <span className="ig-sub">
              <When iso={last.at} />
            </span>
            {last.response && <span className="ig-sub ig-mono">{answerStart(last.response)}</span>}
          </>
        );
      },
    },
    {
      header: 'Actions',
      cell: (delivery) => {
        const expanded = open.has(delivery.id);
        const busy = redelivering.has(delivery.id);
        return (
          <div className="ig-actions">
            <button
              type="button"
              className="vx-btn ig-action"
              aria-expanded={expanded}
              aria-controls={expanded ? attemptsId(id, delivery) : undefined}
              // Nothing to show of a delivery not tried yet.
              disabled={delivery.attempts.length === 0}
              onClick={() => toggle(delivery)}
            >
              Attempts ({delivery.attempts.length})<span className="vx-sr-only"> of {delivery.messageId}</span>
            </button>
            <BusyButton className="vx-btn ig-action" busy={busy} onClick={() => void deliverAgain(delivery)}>
              {busy ? 'Redelivering…' : 'Redeliver'}
              <span className="vx-sr-only"> {delivery.messageId}</span>
            </BusyButton>
          </div>
        );
      },
    },
  ];

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

      {actionError && (
        <p className="vx-notice vx-notice--error" role="alert">
          {actionError}
        </p>
      )}

      <DataTable
        caption={LOG_MESSAGES.caption(endpoint)}
        captionClassName="vx-sr-only"
        className="vx-table ig-log__table"
        columns={columns}
        rows={deliveries}
        rowKey={(delivery) => delivery.id}
        rowAttributes={(delivery) => ({ 'data-id': delivery.id, 'data-state': delivery.state })}
        after={(delivery) =>
          open.has(delivery.id) && (
            <tr className="ig-attempts-row">
              <td colSpan={columns.length}>
                <Attempts delivery={delivery} id={attemptsId(id, delivery)} />
              </td>
            </tr>
          )
        }
        loading={isPending && LOG_MESSAGES.loading}
        error={loadError}
        busy={isPlaceholderData}
        empty={state ? LOG_MESSAGES.emptyFiltered : LOG_MESSAGES.empty}
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

/** A delivery's latest attempts, newest first: when, what came back (or why nothing did), how fast. */
function Attempts({ delivery, id }: { delivery: WebhookDelivery; id: string }) {
  // Numbered: two attempts may share their time and latency.
  const rows = delivery.attempts.map((attempt, index) => ({ ...attempt, index }));
  const columns: Column<(typeof rows)[number]>[] = [
    { header: 'Time', cell: (attempt) => <When iso={attempt.at} />, rowHeader: true },
    { header: 'Status', cell: (attempt) => attempt.status ?? 'No answer' },
    { header: 'Latency', cell: (attempt) => `${attempt.latencyMs} ms` },
    { header: 'Answer', cell: (attempt) => attempt.response || '—', className: 'ig-mono ig-answer' },
  ];
  return (
    <div id={id} className="ig-attempts">
      <DataTable
        caption={`Attempts of ${delivery.messageId}`}
        className="vx-table"
        captionClassName="ig-attempts__caption"
        columns={columns}
        rows={rows}
        rowKey={(attempt) => attempt.index}
        wrapClassName={false}
        empty={LOG_MESSAGES.noAttempt}
      />
      {delivery.attempts.length >= 10 && <p className="vx-hint">{LOG_MESSAGES.attemptsShown}</p>}
    </div>
  );
}

/** Replay failed since a time of the admin's zone: POST …/replay/ with that instant. */
function ReplayForm({ endpoint }: { endpoint: WebhookEndpoint }) {
  const id = useId();
  const replay = useReplayFailed();
  const [since, setSince] = useState('');
  const [fault, setFault] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (replay.isPending) return;
    const instant = since ? new Date(since) : null;
    if (!instant || Number.isNaN(instant.getTime())) return setFault(LOG_MESSAGES.replayMissing);
    setFault(null);
    try {
      const { replayed } = await replay.mutateAsync({ endpointId: endpoint.id, since: instant.toISOString() });
      toast.success(replayedText(replayed));
    } catch (failure) {
      setFault(serverMessage(failure) ?? LOG_MESSAGES.replayFailed);
    }
  }

  return (
    <form
      className="ig-replay"
      aria-label={`Replay failed deliveries to ${endpoint.url}`}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <div className="vx-field">
        <label className="vx-label" htmlFor={`${id}-since`}>
          {LOG_MESSAGES.replayLabel}
        </label>
        <input
          id={`${id}-since`}
          className="vx-input"
          type="datetime-local"
          value={since}
          aria-invalid={fault ? true : undefined}
          aria-describedby={[`${id}-hint`, fault ? `${id}-error` : ''].filter(Boolean).join(' ')}
          onChange={(event) => setSince(event.target.value)}
        />
        <p id={`${id}-hint`} className="vx-hint">
          {LOG_MESSAGES.replayHint}
        </p>
        {fault && (
          <p id={`${id}-error`} className="vx-error-text vx-field-error" role="alert">
            {fault}
          </p>
        )}
      </div>
      <BusyButton type="submit" className="vx-btn" busy={replay.isPending}>
        {replay.isPending ? LOG_MESSAGES.replaying : LOG_MESSAGES.replayButton}
      </BusyButton>
    </form>
  );
}
