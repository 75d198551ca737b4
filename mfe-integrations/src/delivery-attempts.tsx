// A delivery's latest attempts (docs/screens.md#integrations), shown under its row of the delivery
// log when its Attempts button is pressed: a table of when, what came back, and how fast.
import type { WebhookDelivery } from '@veritas/shared/domain';
import { DataTable, type Column } from '@veritas/shared/table';
import { LOG_MESSAGES } from './delivery-log-text';
import { When } from './webhook-text';

/** A delivery's latest attempts, newest first: when, what came back (or why nothing did), how fast. */
export function DeliveryAttempts({ delivery, id }: { delivery: WebhookDelivery; id: string }) {
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
