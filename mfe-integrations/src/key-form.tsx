// The form that creates an API key (docs/screens.md#integrations): a label, what the key may call
// and its last valid day. It is checked against the call's own schema before it is sent
// (ApiKeyCreatePayload of @veritas/shared/domain), its faults shown as @veritas/shared/field-faults shows them.
import { BusyButton, type CreatedToken } from '@veritas/shared';
import { API_KEY_SCOPE_LABELS, API_KEY_SCOPES, ApiKeyCreatePayload, type ApiKeyScope } from '@veritas/shared/domain';
import { useState, type FormEvent } from 'react';
import { defaultExpiry, ExpiresOnField } from '@veritas/shared/access-tokens';
import { useCreateKey } from './api/keys';
import { CodeChoices } from './code-choices';
import { FormField, useFieldFaults } from '@veritas/shared/field-faults';

export const FORM_MESSAGES = {
  failed: 'The key could not be created.',
  expiryHint: 'The key works through the end of that day in UTC.',
} as const;

type Field = 'label' | 'scopes' | 'expiresOn';
const FIELDS: readonly Field[] = ['label', 'scopes', 'expiresOn'];

export function KeyForm({ onCreated }: { onCreated(created: CreatedToken): void }) {
  const createKey = useCreateKey();
  const [label, setLabel] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<ApiKeyScope>>(new Set());
  const [expiresOn, setExpiresOn] = useState(defaultExpiry);
  const faults = useFieldFaults(FIELDS);
  const { formError, check, refused } = faults;
  const sending = createKey.isPending;

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
      <FormField
        faults={faults}
        field="label"
        label="Label"
        input={(wiring) => (
          <input
            {...wiring}
            className="vx-input"
            maxLength={ApiKeyCreatePayload.properties.label.maxLength}
            autoComplete="off"
            value={label}
            onChange={(event) => setLabel(event.target.value)}
          />
        )}
      />
      <CodeChoices
        faults={faults}
        field="scopes"
        legend="Scopes: what the key may call"
        codes={API_KEY_SCOPES}
        labels={API_KEY_SCOPE_LABELS}
        chosen={scopes}
        onChange={setScopes}
      />
      <ExpiresOnField
        faults={faults}
        label="Expires on"
        hint={FORM_MESSAGES.expiryHint}
        value={expiresOn}
        onChange={setExpiresOn}
      />
      <div className="ig-form__actions">
        <BusyButton type="submit" className="vx-btn vx-btn-primary" busy={sending}>
          {sending ? 'Creating key…' : 'Create key'}
        </BusyButton>
        {formError && (
          <p className="vx-notice vx-notice--error" role="alert">
            {formError}
          </p>
        )}
      </div>
    </form>
  );
}
