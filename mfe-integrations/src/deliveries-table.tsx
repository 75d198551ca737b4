// The table of an endpoint's deliveries, in its delivery log (docs/screens.md#integrations): each
// one's message, type, times, state and last attempt, its latest attempts to expand under its row,
// and Redeliver, whose failure shows above the table.
import { BusyButton, serverMessage, toast } from '@veritas/shared';
import type { WebhookDelivery, WebhookEndpoint } from '@veritas/shared/domain';
import { DataTable, useIdsUnderWay, type Column } from '@veritas/shared/table';
import { useState } from 'react';
import { useRedeliver } from './api/webhooks';
import { DeliveryAttempts } from './delivery-attempts';
import { LOG_MESSAGES } from './delivery-log-text';
import { DeliveryState, When, answerStart, attemptText, eventName } from './webhook-text';

const attemptsId = (logId: string, delivery: WebhookDelivery) => `${logId}-attempts-${delivery.id}`;

export interface DeliveriesTableProps {
  endpoint: WebhookEndpoint;
  /** The delivery log's id, which the id of each delivery's attempts starts with. */
  logId: string;
  deliveries: readonly WebhookDelivery[];
  loading: boolean;
  /** Why the deliveries could not be read: shown instead of them. */
  error: string | null;
  /** The rows shown are those of the state chosen before, while the new state's load. */
  showingPrevious: boolean;
  /** A state is chosen: the empty table says none is in it. */
  filtered: boolean;
}

export function DeliveriesTable({
  endpoint,
  logId,
  deliveries,
  loading,
  error,
  showingPrevious,
  filtered,
}: DeliveriesTableProps) {
  const redeliver = useRedeliver();
  const redelivering = useIdsUnderWay();
  const [actionError, setActionError] = useState<string | null>(null);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());

  function toggle(delivery: WebhookDelivery) {
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(delivery.id)) next.add(delivery.id);
      return next;
    });
  }

  async function deliverAgain(delivery: WebhookDelivery) {
    setActionError(null);
    await redelivering.whileUnderWay(delivery.id, async () => {
      try {
        await redeliver.mutateAsync({ deliveryId: delivery.id, endpointId: endpoint.id });
        toast.success(LOG_MESSAGES.redelivered(delivery));
      } catch (failure) {
        setActionError(serverMessage(failure) ?? LOG_MESSAGES.redeliverFailed);
      }
    });
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
        const busy = redelivering.isUnderWay(delivery.id);
        return (
          <div className="ig-actions">
            <button
              type="button"
              className="vx-btn ig-action"
              aria-expanded={expanded}
              aria-controls={expanded ? attemptsId(logId, delivery) : undefined}
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
    <>
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
                <DeliveryAttempts delivery={delivery} id={attemptsId(logId, delivery)} />
              </td>
            </tr>
          )
        }
        loading={loading && LOG_MESSAGES.loading}
        error={error}
        busy={showingPrevious}
        empty={filtered ? LOG_MESSAGES.emptyFiltered : LOG_MESSAGES.empty}
      />
    </>
  );
}
