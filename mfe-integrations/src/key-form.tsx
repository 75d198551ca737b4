// The form that creates an API key (docs/screens.md#integrations): a label, what the key may call
// and its last valid day. It is checked against the call's own schema before it is sent
// (ApiKeyCreatePayload of @veritas/shared/domain), its faults shown as @veritas/shared/field-faults shows them.
import type { CreatedToken } from '@veritas/shared';
import { API_KEY_SCOPE_LABELS, API_KEY_SCOPES, ApiKeyCreatePayload, type ApiKeyScope } from '@veritas/shared/domain';
import { useState, type FormEvent } from 'react';
import { utcToday } from '@veritas/shared/access-tokens';
import { useCreateKey } from './api/keys';
import { useFieldFaults } from '@veritas/shared/field-faults';

export const FORM_MESSAGES = {
  failed: 'The key could not be created.',
  expiryHint: 'The key works through the end of that day in UTC.',
} as const;

type Field = 'label' | 'scopes' | 'expiresOn';
const FIELDS: readonly Field[] = ['label', 'scopes', 'expiresOn'];

const DAY_MS = 86_400_000;
/** How long a new key works unless the admin chooses otherwise. */
export const DEFAULT_DAYS = 90;

/** The UTC day DEFAULT_DAYS from now, YYYY-MM-DD: the server counts a key's days in UTC. */
export const defaultExpiry = () => utcToday(new Date(Date.now() + DEFAULT_DAYS * DAY_MS));

export function KeyForm({ onCreated }: { onCreated(created: CreatedToken): void }) {
  const createKey = useCreateKey();
  const [label, setLabel] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<ApiKeyScope>>(new Set());
  const [expiresOn, setExpiresOn] = useState(defaultExpiry);
  const { id, formError, check, refused, inputRef, invalid, describedBy, fieldError } = useFieldFaults(FIELDS);
  const sending = createKey.isPending;

  function toggle(scope: ApiKeyScope, on: boolean) {
    setScopes((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    // The scopes in the order the server lists them.
    const payload = { label: label.trim(), scopes: API_KEY_SCOPES.filter((s) => scopes.has(s)), expiresOn };
    if (!check(ApiKeyCreatePayload, payload)) return;
    try {
      const created = await createKey.mutateAsync(payload);
      // The answer is the section's now; the mutation keeps no copy of the secret.
      createKey.reset();
      setLabel('');
      setScopes(new Set());
      setExpiresOn(defaultExpiry());
      onCreated(created);
    } catch (failure) {
      refused(failure, FORM_MESSAGES.failed);
    }
  }

  return (
    <form className="ig-form" aria-label="Create an API key" noValidate onSubmit={(event) => void submit(event)}>
      <div className="vx-field">
        <label className="vx-label" htmlFor={`${id}-label`}>
          Label
        </label>
        <input
          ref={inputRef('label')}
          id={`${id}-label`}
          className="vx-input"
          maxLength={ApiKeyCreatePayload.properties.label.maxLength}
          autoComplete="off"
          value={label}
          aria-invalid={invalid('label')}
          aria-describedby={describedBy('label')}
          onChange={(event) => setLabel(event.target.value)}
        />
        {fieldError('label')}
      </div>
      <fieldset className="ig-scopes" aria-describedby={describedBy('scopes')}>
        <legend className="vx-label">Scopes: what the key may call</legend>
        {API_KEY_SCOPES.map((scope, index) => (
          <label key={scope} className="ig-scope">
            <input
              ref={index === 0 ? inputRef('scopes') : undefined}
              type="checkbox"
              value={scope}
              checked={scopes.has(scope)}
              aria-invalid={invalid('scopes')}
              onChange={(event) => toggle(scope, event.target.checked)}
            />{' '}
            {API_KEY_SCOPE_LABELS[scope]} <code className="ig-code">{scope}</code>
          </label>
        ))}
        {fieldError('scopes')}
      </fieldset>
      <div className="vx-field">
        <label className="vx-label" htmlFor={`${id}-expires`}>
          Expires on
        </label>
        <input
          ref={inputRef('expiresOn')}
          id={`${id}-expires`}
          className="vx-input"
          type="date"
          // Today in UTC: the earliest day the server takes.
          min={utcToday()}
          value={expiresOn}
          aria-invalid={invalid('expiresOn')}
          aria-describedby={describedBy('expiresOn', `${id}-expires-hint`)}
          onChange={(event) => setExpiresOn(event.target.value)}
        />
        <p id={`${id}-expires-hint`} className="vx-hint">
          {FORM_MESSAGES.expiryHint}
        </p>
        {fieldError('expiresOn')}
      </div>
      <div className="ig-form__actions">
        <button
          type="submit"
          className="vx-btn vx-btn-primary"
          // Not `disabled`: the button keeps the focus while the call runs, and takes no second click.
          aria-disabled={sending || undefined}
        >
          {sending ? 'Creating key…' : 'Create key'}
        </button>
        {formError && (
          <p className="vx-notice vx-notice--error" role="alert">
            {formError}
          </p>
        )}
      </div>
    </form>
  );
}
