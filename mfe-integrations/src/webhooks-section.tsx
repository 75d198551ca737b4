// Webhook endpoints (docs/screens.md#integrations, docs/webhooks.md): the endpoints the server
// POSTs signed messages to, a notice of those the server disabled, adding one (its secret shown
// once), and per endpoint Edit (in a dialog), Enable/Disable, Rotate secret and Delete (after the
// browser's confirmation, as Revoke of a key asks), Send test event, and its delivery log.
import { BusyButton, Modal, serverMessage, toast } from '@veritas/shared';
import type { WebhookEndpoint, WebhookEndpointPayload, WebhookSecretAnswer } from '@veritas/shared/domain';
import { useQueryNow } from '@veritas/shared/query';
import { useEffect, useId, useRef, useState } from 'react';
import {
  endpointsQuery,
  useDeleteEndpoint,
  useRotateSecret,
  useSendTestEvent,
  useUpdateEndpoint,
} from './api/webhooks';
import { DeliveryLog } from './delivery-log';
import { ENDPOINT_FORM_MESSAGES, EndpointForm } from './endpoint-form';
import { EndpointsTable, type EndpointAction } from './endpoints-table';
import { useEndpointCalls } from './use-endpoint-calls';
import { disabledByServer, disabledNoticeText } from './webhook-text';
import { WebhookSecret } from './webhook-secret';

export const WEBHOOKS_MESSAGES = {
  heading: 'Webhook endpoints',
  loadFailed: 'Failed to load the webhook endpoints',
  retry: 'Retry',
  editTitle: 'Edit endpoint',
  confirmRotate: (endpoint: WebhookEndpoint) =>
    `Rotate the secret of ${endpoint.url}? A new secret signs its messages from now on; the current one signs beside it for 24 hours, time to change it on the receiver.`,
  confirmDelete: (endpoint: WebhookEndpoint) =>
    `Delete the endpoint ${endpoint.url}? It receives no more events, and its delivery log is deleted with it. This cannot be undone.`,
  saved: (endpoint: WebhookEndpoint) => `The endpoint ${endpoint.url} is saved.`,
  enabled: (endpoint: WebhookEndpoint) => `The endpoint ${endpoint.url} is enabled.`,
  disabled: (endpoint: WebhookEndpoint) => `The endpoint ${endpoint.url} is disabled.`,
  deleted: (endpoint: WebhookEndpoint) => `The endpoint ${endpoint.url} is deleted.`,
  testSent: (endpoint: WebhookEndpoint, messageId: string) =>
    `Test event queued for ${endpoint.url}: message ${messageId}.`,
  failed: {
    toggle: 'The endpoint could not be changed.',
    rotate: 'The secret could not be rotated.',
    test: 'The test event could not be sent.',
    delete: 'The endpoint could not be deleted.',
  },
} as const;

const NO_ENDPOINTS: WebhookEndpoint[] = [];

/** The body of POST …/{id}/ that changes only whether the endpoint is enabled. */
const withEnabled = (endpoint: WebhookEndpoint, enabled: boolean): WebhookEndpointPayload => ({
  url: endpoint.url,
  description: endpoint.description,
  // As the server has them: a type this console does not know yet is the server's to judge.
  eventTypes: endpoint.eventTypes as WebhookEndpointPayload['eventTypes'],
  enabled,
});

export function WebhooksSection() {
  const headingId = useId();
  const noticeId = useId();
  const logId = useId();
  const { data, isPending: loading, error, refetch, isFetching } = useQueryNow(endpointsQuery);
  const endpoints = data ?? NO_ENDPOINTS;
  const loadError = error && !data ? (serverMessage(error) ?? WEBHOOKS_MESSAGES.loadFailed) : null;
  const updateEndpoint = useUpdateEndpoint();
  const rotateSecret = useRotateSecret();
  const sendTestEvent = useSendTestEvent();
  const deleteEndpoint = useDeleteEndpoint();

  // The secret shown once: of the endpoint just added, or just rotated (its Rotate button then takes the focus back).
  const [secret, setSecret] = useState<{ answer: WebhookSecretAnswer; rotated: boolean } | null>(null);
  const { busyWith, status, actionError, statusLine, report, clearOutcome, run } = useEndpointCalls(
    WEBHOOKS_MESSAGES.failed,
  );
  const [editing, setEditing] = useState<WebhookEndpoint | null>(null);
  const [logFor, setLogFor] = useState<number | null>(null);
  const logHeading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);

  useEffect(() => {
    if (logFor !== null) logHeading.current?.focus();
  }, [logFor]);

  const logEndpoint = endpoints.find((endpoint) => endpoint.id === logFor) ?? null;
  const serverDisabled = endpoints.filter(disabledByServer);

  /** The button of the endpoint's row that does `action`. */
  const rowButton = (id: number, action: EndpointAction) =>
    section.current?.querySelector<HTMLButtonElement>(`tr[data-id="${id}"] button[data-action="${action}"]`);

  function act(action: EndpointAction, endpoint: WebhookEndpoint) {
    switch (action) {
      case 'edit':
        setEditing(endpoint);
        return;
      case 'log':
        if (logFor === endpoint.id) closeLog();
        else setLogFor(endpoint.id);
        return;
      case 'toggle':
        void run(endpoint, action, async () => {
          const changed = await updateEndpoint.mutateAsync({
            id: endpoint.id,
            payload: withEnabled(endpoint, !endpoint.enabled),
          });
          report(changed.enabled ? WEBHOOKS_MESSAGES.enabled(changed) : WEBHOOKS_MESSAGES.disabled(changed));
        });
        return;
      case 'rotate':
        if (!window.confirm(WEBHOOKS_MESSAGES.confirmRotate(endpoint))) return;
        void run(endpoint, action, async () => {
          const answer = await rotateSecret.mutateAsync(endpoint.id);
          rotateSecret.reset();
          setSecret({ answer, rotated: true });
        });
        return;
      case 'test':
        void run(endpoint, action, async () => {
          const { messageId } = await sendTestEvent.mutateAsync(endpoint.id);
          toast.success(WEBHOOKS_MESSAGES.testSent(endpoint, messageId));
        });
        return;
      case 'delete':
        if (!window.confirm(WEBHOOKS_MESSAGES.confirmDelete(endpoint))) return;
        void run(endpoint, action, async () => {
          await deleteEndpoint.mutateAsync(endpoint.id);
          if (logFor === endpoint.id) setLogFor(null);
          if (secret?.answer.endpoint.id === endpoint.id) setSecret(null);
          report(WEBHOOKS_MESSAGES.deleted(endpoint), true);
        });
        return;
    }
  }

  function closeLog() {
    const id = logFor;
    setLogFor(null);
    if (id !== null) rowButton(id, 'log')?.focus();
  }

  function secretDone() {
    const shown = secret;
    setSecret(null);
    // The secret's field is gone: the focus goes back to where it came from.
    if (shown?.rotated) rowButton(shown.answer.endpoint.id, 'rotate')?.focus();
    else
      section.current
        ?.querySelector<HTMLInputElement>(`form[aria-label="${ENDPOINT_FORM_MESSAGES.addLabel}"] input`)
        ?.focus();
  }

  return (
    <section ref={section} className="vx-card ig-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="vx-card-title">
        {WEBHOOKS_MESSAGES.heading}
      </h2>
      <p className="vx-muted ig-intro">
        The server POSTs a signed message to each endpoint as records, shipments and cases change (Standard Webhooks).
        The receiver checks each message's signature with the endpoint's secret.
      </p>
      {serverDisabled.length > 0 && (
        <p id={noticeId} className="vx-notice vx-notice--error" role="status">
          {disabledNoticeText(serverDisabled)}
        </p>
      )}
      <EndpointForm
        onCreated={(answer) => {
          clearOutcome();
          setSecret({ answer, rotated: false });
        }}
      />
      {secret && (
        <WebhookSecret
          key={`${secret.answer.endpoint.id}-${secret.answer.secret}`}
          answer={secret.answer}
          rotated={secret.rotated}
          onDone={secretDone}
        />
      )}
      <p
        ref={statusLine}
        tabIndex={-1}
        className={status ? 'vx-notice vx-notice--success' : 'vx-sr-only'}
        role="status"
      >
        {status?.text}
      </p>
      {actionError && (
        <p className="vx-notice vx-notice--error" role="alert">
          {actionError}
        </p>
      )}
      <EndpointsTable
        endpoints={endpoints}
        loading={loading}
        error={loadError}
        busy={busyWith}
        logOpen={logFor}
        logId={logId}
        onAction={act}
      />
      {loadError && (
        <BusyButton className="vx-btn ig-retry" busy={isFetching} onClick={() => void refetch()}>
          {WEBHOOKS_MESSAGES.retry}
        </BusyButton>
      )}
      {logEndpoint && (
        <DeliveryLog
          key={logEndpoint.id}
          id={logId}
          endpoint={logEndpoint}
          headingRef={logHeading}
          onClose={closeLog}
        />
      )}
      <Modal open={editing !== null} title={WEBHOOKS_MESSAGES.editTitle} onClose={() => setEditing(null)}>
        {editing && (
          <EndpointForm
            endpoint={editing}
            onUpdated={(endpoint) => {
              setEditing(null);
              report(WEBHOOKS_MESSAGES.saved(endpoint));
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </section>
  );
}
