// The form that creates a deploy token (docs/screens.md#deployments): for every remote, for one,
// or for a remote the registry has no version of yet; it works through its last valid day in UTC.
// Its faults show under their fields (@veritas/shared/field-faults).
import { BusyButton, type CreatedToken } from '@veritas/shared';
import { defaultExpiry, ExpiresOnField } from '@veritas/shared/access-tokens';
import { formFaults, RemoteParams, TokenCreatePayload } from '@veritas/shared/domain';
import { FormField, useFieldFaults } from '@veritas/shared/field-faults';
import { useState, type FormEvent } from 'react';
import { useCreateToken } from './api';
import { ALL_REMOTES } from './tokens-table';

/** The scope choice of a remote the registry has no version of yet: its name is typed. */
const NEW_REMOTE = 'new';
const NEW_REMOTE_MISSING = 'Name the new remote the token may deploy.';

type Field = keyof TokenCreatePayload;
const FIELDS: readonly Field[] = ['label', 'scope', 'expiresOn'];

export function TokenForm({
  remotes,
  onCreated,
}: {
  remotes: readonly string[];
  onCreated(created: CreatedToken): void;
}) {
  const createToken = useCreateToken();
  const [label, setLabel] = useState('');
  const [scope, setScope] = useState(ALL_REMOTES);
  const [newRemote, setNewRemote] = useState('');
  const [expiresOn, setExpiresOn] = useState(defaultExpiry);
  const faults = useFieldFaults(FIELDS);
  const { id, formError, passes, refused, inputRef, invalid, describedBy, fieldError } = faults;
  // A new remote's scope is its name, typed in a field of its own: that field shows the scope's fault.
  const namingNewRemote = scope === NEW_REMOTE;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (createToken.isPending) return;
    // A new team's token names its remote before its first publish.
    const payload = {
      label: label.trim(),
      scope: namingNewRemote ? `deploy:${newRemote.trim()}` : scope,
      expiresOn,
    };
    const faults = formFaults(TokenCreatePayload, payload) as Map<Field, string>;
    // The scope's fault is said of the name typed: asked for when missing, else as the registry
    // says a remote's name is written.
    if (namingNewRemote && faults.has('scope')) {
      const name = newRemote.trim();
      const nameFault = formFaults(RemoteParams, { remote: name }).get('remote');
      faults.set('scope', name ? (nameFault ?? faults.get('scope')!) : NEW_REMOTE_MISSING);
    }
    if (!passes(faults)) return;
    try {
      const created = await createToken.mutateAsync(payload);
      // The answer is the section's now; the mutation keeps no copy of the secret.
      createToken.reset();
      // The next token starts from a blank form, as the API key form does.
      setLabel('');
      setScope(ALL_REMOTES);
      setNewRemote('');
      setExpiresOn(defaultExpiry());
      onCreated(created);
    } catch (failure) {
      refused(failure, 'The token could not be created.');
    }
  }

  return (
    <form className="dp-form" aria-label="Create a deploy token" noValidate onSubmit={(event) => void submit(event)}>
      <FormField
        faults={faults}
        field="label"
        label="Label"
        input={(wiring) => (
          <input
            {...wiring}
            className="vx-input"
            maxLength={TokenCreatePayload.properties.label.maxLength}
            autoComplete="off"
            value={label}
            onChange={(event) => setLabel(event.target.value)}
          />
        )}
      />
      <div className="vx-field">
        <label className="vx-label" htmlFor={`${id}-scope-choice`}>
          May deploy
        </label>
        <select
          ref={namingNewRemote ? undefined : inputRef('scope')}
          id={`${id}-scope-choice`}
          className="vx-select"
          value={scope}
          aria-invalid={namingNewRemote ? undefined : invalid('scope')}
          aria-describedby={namingNewRemote ? undefined : describedBy('scope')}
          onChange={(event) => setScope(event.target.value)}
        >
          <option value={ALL_REMOTES}>All remotes</option>
          {remotes.map((remote) => (
            <option key={remote} value={`deploy:${remote}`}>
              {remote} only
            </option>
          ))}
          <option value={NEW_REMOTE}>A new remote…</option>
        </select>
        {!namingNewRemote && fieldError('scope')}
      </div>
      {namingNewRemote && (
        <FormField
          faults={faults}
          field="scope"
          label="New remote's name"
          input={(wiring) => (
            <input
              {...wiring}
              className="vx-input"
              maxLength={40}
              autoComplete="off"
              spellCheck={false}
              value={newRemote}
              onChange={(event) => setNewRemote(event.target.value)}
            />
          )}
        />
      )}
      <ExpiresOnField
        faults={faults}
        label="Expires on (last valid day)"
        hint="It works through the end of that day in UTC, until 00:00 UTC the day after."
        value={expiresOn}
        onChange={setExpiresOn}
      />
      <BusyButton type="submit" className="vx-btn vx-btn-primary" busy={createToken.isPending}>
        {createToken.isPending ? 'Creating token…' : 'Create token'}
      </BusyButton>
      {formError && (
        <p className="vx-notice vx-notice--error dp-form__error" role="alert">
          {formError}
        </p>
      )}
    </form>
  );
}
