// The form that adds a webhook endpoint, or changes one (docs/screens.md#integrations): its URL, a
// description, the events it receives and whether it is enabled. As the key form, it is checked
// against the call's own schema before it is sent (WebhookEndpointPayload of
// @veritas/shared/domain), its faults shown as @veritas/shared/field-faults shows them: a refusal of the server
// (an address it will not send to) on the field it names.
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WebhookEndpointPayload,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookSecretAnswer,
} from '@veritas/shared/domain';
import { BusyButton } from '@veritas/shared';
import { useState, type FormEvent } from 'react';
import { useCreateEndpoint, useUpdateEndpoint } from './api/webhooks';
import { CodeChoices } from './code-choices';
import { FormField, useFieldFaults } from '@veritas/shared/field-faults';

export const ENDPOINT_FORM_MESSAGES = {
  addLabel: 'Add a webhook endpoint',
  editLabel: (endpoint: WebhookEndpoint) => `Edit the endpoint ${endpoint.url}`,
  add: 'Add endpoint',
  adding: 'Adding endpoint…',
  save: 'Save changes',
  saving: 'Saving changes…',
  cancel: 'Cancel',
  addFailed: 'The endpoint could not be added.',
  saveFailed: 'The endpoint could not be saved.',
  urlHint: 'The server POSTs each message there, signed: an https:// address on the internet.',
  eventsLegend: 'Events: what the endpoint receives',
  enabledHint: 'Only an enabled endpoint is sent events.',
} as const;

type Field = 'url' | 'description' | 'eventTypes' | 'enabled';
const FIELDS: readonly Field[] = ['url', 'description', 'eventTypes', 'enabled'];

const known = (types: readonly string[]) =>
  new Set(WEBHOOK_EVENT_TYPES.filter((type) => types.includes(type))) as Set<WebhookEventType>;

export interface EndpointFormProps {
  /** The endpoint to change; none: the form adds one. */
  endpoint?: WebhookEndpoint;
  onCreated?(answer: WebhookSecretAnswer): void;
  onUpdated?(endpoint: WebhookEndpoint): void;
  onCancel?(): void;
}

export function EndpointForm({ endpoint, onCreated, onUpdated, onCancel }: EndpointFormProps) {
  const createEndpoint = useCreateEndpoint();
  const updateEndpoint = useUpdateEndpoint();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<ReadonlySet<WebhookEventType>>(() => known(endpoint?.eventTypes ?? []));
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const faults = useFieldFaults(FIELDS);
  const { id, formError, check, refused, inputRef, invalid, describedBy, fieldError } = faults;
  const sending = createEndpoint.isPending || updateEndpoint.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    // The events in the order the server lists them.
    const payload = {
      url: url.trim(),
      description: description.trim(),
      eventTypes: WEBHOOK_EVENT_TYPES.filter((type) => events.has(type)),
      enabled,
    };
    if (!check(WebhookEndpointPayload, payload)) return;
    try {
      if (endpoint) {
        onUpdated?.(await updateEndpoint.mutateAsync({ id: endpoint.id, payload }));
        return;
      }
      const created = await createEndpoint.mutateAsync(payload);
      // The answer is the section's now; the mutation keeps no copy of the secret.
      createEndpoint.reset();
      setUrl('');
      setDescription('');
      setEvents(new Set());
      setEnabled(true);
      onCreated?.(created);
    } catch (failure) {
      refused(failure, endpoint ? ENDPOINT_FORM_MESSAGES.saveFailed : ENDPOINT_FORM_MESSAGES.addFailed);
    }
  }

  return (
    <form
      className="ig-form ig-endpoint-form"
      aria-label={endpoint ? ENDPOINT_FORM_MESSAGES.editLabel(endpoint) : ENDPOINT_FORM_MESSAGES.addLabel}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <FormField
        faults={faults}
        field="url"
        label="URL"
        hint={ENDPOINT_FORM_MESSAGES.urlHint}
        className="ig-wide"
        input={(wiring) => (
          <input
            {...wiring}
            className="vx-input"
            type="url"
            inputMode="url"
            // In a dialog (editing), the field the dialog opens on.
            data-autofocus={endpoint ? true : undefined}
            maxLength={WebhookEndpointPayload.properties.url.maxLength}
            autoComplete="off"
            spellCheck={false}
            placeholder="https://"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
        )}
      />
      <FormField
        faults={faults}
        field="description"
        label="Description"
        className="ig-wide"
        input={(wiring) => (
          <input
            {...wiring}
            className="vx-input"
            maxLength={WebhookEndpointPayload.properties.description.maxLength}
            autoComplete="off"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      />
      <CodeChoices
        faults={faults}
        field="eventTypes"
        legend={ENDPOINT_FORM_MESSAGES.eventsLegend}
        codes={WEBHOOK_EVENT_TYPES}
        labels={WEBHOOK_EVENT_LABELS}
        chosen={events}
        onChange={setEvents}
        className="ig-wide ig-events"
      />
      <div className="vx-field ig-wide">
        <label className="ig-scope ig-enabled">
          <input
            ref={inputRef('enabled')}
            type="checkbox"
            checked={enabled}
            aria-invalid={invalid('enabled')}
            aria-describedby={describedBy('enabled', `${id}-enabled-hint`)}
            onChange={(event) => setEnabled(event.target.checked)}
          />{' '}
          Enabled
        </label>
        <p id={`${id}-enabled-hint`} className="vx-hint">
          {ENDPOINT_FORM_MESSAGES.enabledHint}
        </p>
        {fieldError('enabled')}
      </div>
      <div className="ig-form__actions">
        <BusyButton type="submit" className="vx-btn vx-btn-primary" busy={sending}>
          {endpoint
            ? sending
              ? ENDPOINT_FORM_MESSAGES.saving
              : ENDPOINT_FORM_MESSAGES.save
            : sending
              ? ENDPOINT_FORM_MESSAGES.adding
              : ENDPOINT_FORM_MESSAGES.add}
        </BusyButton>
        {onCancel && (
          <button type="button" className="vx-btn" onClick={onCancel}>
            {ENDPOINT_FORM_MESSAGES.cancel}
          </button>
        )}
        {formError && (
          <p className="vx-notice vx-notice--error" role="alert">
            {formError}
          </p>
        )}
      </div>
    </form>
  );
}
