// The form that creates a deploy token (docs/screens.md#deployments): for every remote, for one,
// or for a remote the registry has no version of yet; it works through its last valid day in UTC.
import { serverMessage, type CreatedToken } from '@veritas/shared';
import { formFaults, TokenCreatePayload } from '@veritas/shared/domain';
import { useId, useState, type FormEvent } from 'react';
import { useCreateToken } from './api';
import { utcToday } from '@veritas/shared/access-tokens';
import { ALL_REMOTES } from './tokens-table';

/** The scope choice of a remote the registry has no version of yet: its name is typed. */
const NEW_REMOTE = 'new';
const NEW_REMOTE_MISSING = 'Name the new remote the token may deploy.';

export function TokenForm({
  remotes,
  onCreated,
}: {
  remotes: readonly string[];
  onCreated(created: CreatedToken): void;
}) {
  const labelId = useId();
  const scopeId = useId();
  const newRemoteId = useId();
  const expiryId = useId();
  const expiryHintId = useId();
  const createToken = useCreateToken();
  const [label, setLabel] = useState('');
  const [scope, setScope] = useState(ALL_REMOTES);
  const [newRemote, setNewRemote] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    // A new team's token names its remote before its first publish.
    const payload = {
      label: label.trim(),
      scope: scope === NEW_REMOTE ? `deploy:${newRemote.trim()}` : scope,
      expiresOn,
    };
    const faults = formFaults(TokenCreatePayload, payload);
    // Without its name the scope reads `deploy:`: the form asks for the name.
    if (scope === NEW_REMOTE && !newRemote.trim() && faults.has('scope')) faults.set('scope', NEW_REMOTE_MISSING);
    const [problem] = faults.values();
    if (problem) return setFormError(problem);
    setFormError(null);
    try {
      onCreated(await createToken.mutateAsync(payload));
      setLabel('');
      setExpiresOn('');
    } catch (failure) {
      setFormError(serverMessage(failure) ?? 'The token could not be created.');
    }
  }

  return (
    <form className="dp-form" aria-label="Create a deploy token" noValidate onSubmit={(event) => void submit(event)}>
      <div className="vx-field">
        <label className="vx-label" htmlFor={labelId}>
          Label
        </label>
        <input
          id={labelId}
          className="vx-input"
          maxLength={TokenCreatePayload.properties.label.maxLength}
          autoComplete="off"
          value={label}
          onChange={(event) => setLabel(event.target.value)}
        />
      </div>
      <div className="vx-field">
        <label className="vx-label" htmlFor={scopeId}>
          May deploy
        </label>
        <select id={scopeId} className="vx-select" value={scope} onChange={(event) => setScope(event.target.value)}>
          <option value={ALL_REMOTES}>All remotes</option>
          {remotes.map((remote) => (
            <option key={remote} value={`deploy:${remote}`}>
              {remote} only
            </option>
          ))}
          <option value={NEW_REMOTE}>A new remote…</option>
        </select>
      </div>
      {scope === NEW_REMOTE && (
        <div className="vx-field">
          <label className="vx-label" htmlFor={newRemoteId}>
            New remote's name
          </label>
          <input
            id={newRemoteId}
            className="vx-input"
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            value={newRemote}
            onChange={(event) => setNewRemote(event.target.value)}
          />
        </div>
      )}
      <div className="vx-field">
        <label className="vx-label" htmlFor={expiryId}>
          Expires on (last valid day)
        </label>
        <input
          id={expiryId}
          className="vx-input"
          type="date"
          // Today in UTC: the earliest day the server takes.
          min={utcToday()}
          aria-describedby={expiryHintId}
          value={expiresOn}
          onChange={(event) => setExpiresOn(event.target.value)}
        />
        <p id={expiryHintId} className="vx-hint">
          It works through the end of that day in UTC, until 00:00 UTC the day after.
        </p>
      </div>
      <button type="submit" className="vx-btn vx-btn-primary" disabled={createToken.isPending}>
        Create token
      </button>
      {formError && (
        <p className="vx-notice vx-notice--error dp-form__error" role="alert">
          {formError}
        </p>
      )}
    </form>
  );
}
