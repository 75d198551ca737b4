// The table of webhook endpoints (docs/screens.md#integrations): each one's address, the events it
// receives by their labels, its description, status, failing streak and who added it, and what an
// admin does with it: Edit, Enable or Disable, Rotate secret, Send test event, Delete, and its
// Delivery log. Each button's name says its endpoint (visible text, then the address for screen readers).
import { BusyButton } from '@veritas/shared';
import type { WebhookEndpoint } from '@veritas/shared/domain';
import { DataTable, type Column } from '@veritas/shared/table';
import type { ReactNode } from 'react';
import { EndpointStatus, When, eventsText } from './webhook-text';

export const ENDPOINTS_TABLE_MESSAGES = {
  caption: 'Webhook endpoints',
  loading: 'Loading webhook endpoints…',
  empty: 'No webhook endpoints yet.',
  none: '—',
} as const;

export type EndpointAction = 'edit' | 'toggle' | 'rotate' | 'test' | 'delete' | 'log';

export interface EndpointsTableProps {
  endpoints: readonly WebhookEndpoint[];
  loading: boolean;
  error: ReactNode;
  /** The action under way on the endpoint, if any: its button says so and takes no second click. */
  busy(id: number): EndpointAction | null;
  /** The endpoint whose delivery log is open. */
  logOpen: number | null;
  logId: string;
  onAction(action: EndpointAction, endpoint: WebhookEndpoint): void;
}

export function EndpointsTable({ endpoints, loading, error, busy, logOpen, logId, onAction }: EndpointsTableProps) {
  function actions(endpoint: WebhookEndpoint) {
    const under = busy(endpoint.id);
    const button = (
      action: EndpointAction,
      [text, busyText, before]: [text: string, busyText: string, before: string],
      extra: { danger?: boolean } = {},
    ) => (
      // The row's buttons take no press while one of its calls runs, as a user's row does.
      <BusyButton
        className={`vx-btn ig-action${extra.danger ? ' vx-btn-danger' : ''}`}
        data-action={action}
        busy={Boolean(under)}
        onClick={() => onAction(action, endpoint)}
      >
        {under === action ? busyText : text}
        <span className="vx-sr-only">
          {before} {endpoint.url}
        </span>
      </BusyButton>
    );
    const open = logOpen === endpoint.id;
    return (
      <div className="ig-actions">
        {button('edit', ['Edit', 'Edit', ''])}
        {button('toggle', endpoint.enabled ? ['Disable', 'Disabling…', ''] : ['Enable', 'Enabling…', ''])}
        {button('rotate', ['Rotate secret', 'Rotating secret…', ' of'])}
        {button('test', ['Send test event', 'Sending test event…', ' to'])}
        {button('delete', ['Delete', 'Deleting…', ''], { danger: true })}
        <button
          type="button"
          className="vx-btn ig-action"
          data-action="log"
          aria-expanded={open}
          aria-controls={open ? logId : undefined}
          onClick={() => onAction('log', endpoint)}
        >
          Delivery log<span className="vx-sr-only"> of {endpoint.url}</span>
        </button>
      </div>
    );
  }

  const columns: Column<WebhookEndpoint>[] = [
    { header: 'URL', cell: (endpoint) => endpoint.url, rowHeader: true, className: 'ig-url' },
    { header: 'Events', cell: (endpoint) => eventsText(endpoint.eventTypes) },
    { header: 'Description', cell: (endpoint) => endpoint.description || ENDPOINTS_TABLE_MESSAGES.none },
    { header: 'Status', cell: (endpoint) => <EndpointStatus endpoint={endpoint} /> },
    {
      header: 'Failing since',
      cell: (endpoint) =>
        endpoint.failingSince ? <When iso={endpoint.failingSince} /> : ENDPOINTS_TABLE_MESSAGES.none,
    },
    {
      header: 'Created by',
      cell: (endpoint) => (
        <>
          {endpoint.createdBy}{' '}
          <span className="ig-sub">
            on <When iso={endpoint.createdAt} />
          </span>
        </>
      ),
    },
    { header: 'Actions', cell: actions },
  ];

  return (
    <DataTable
      caption={ENDPOINTS_TABLE_MESSAGES.caption}
      captionClassName="vx-sr-only"
      className="vx-table"
      columns={columns}
      rows={endpoints}
      rowKey={(endpoint) => endpoint.id}
      rowAttributes={(endpoint) => ({ 'data-id': endpoint.id })}
      loading={loading && ENDPOINTS_TABLE_MESSAGES.loading}
      error={error}
      empty={ENDPOINTS_TABLE_MESSAGES.empty}
    />
  );
}
