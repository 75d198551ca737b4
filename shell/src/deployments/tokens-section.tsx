// Deploy tokens (super_admin; docs/screens.md#deployments): create one for all remotes or one
// remote, see its secret once, list them, revoke one. A token works through its last valid day in
// UTC, as the server applies it; the form and the table say so (token-expiry.ts).
import { formatDateTime, serverMessage, toast, type AccessToken, type CreatedToken } from '@veritas/shared';
import { useQueryError, useQueryNow } from '@veritas/shared/query';
import { DAY_PATTERN, TOKEN_MESSAGES } from '@veritas/shared/domain';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { tokensQuery, useCreateToken, useRevokeToken } from './api';
import { ConfirmDialog } from './confirm-dialog';
import { TableNotice } from './table-notice';
import { tokenExpiry, utcToday } from './token-expiry';

const ALL_REMOTES = 'deploy:*';
/** The scope choice of a remote the registry has no version of yet: its name is typed. */
const NEW_REMOTE = 'new';
const NO_TOKENS: AccessToken[] = [];

/** How a scope reads: 'All remotes' or 'devices only'. */
export function scopeLabel(scope: string): string {
  if (scope === ALL_REMOTES) return 'All remotes';
  return scope.startsWith('deploy:') ? `${scope.slice('deploy:'.length)} only` : scope;
}

function status(token: AccessToken, now: number): string {
  if (token.revokedAt) return `Revoked ${formatDateTime(token.revokedAt)}`;
  // The server takes a token until `expiresAt`, not at it.
  return Date.parse(token.expiresAt) <= now ? 'Expired' : 'Active';
}

/** The last valid day, and the instant the token ends, both in UTC. */
function Expiry({ expiresAt }: { expiresAt: string }) {
  const expiry = tokenExpiry(expiresAt);
  if (!expiry) return <>{formatDateTime(expiresAt)}</>;
  return (
    <>
      <time dateTime={expiry.lastDayIso}>{expiry.lastDay}</time>{' '}
      <span className="dp-source">
        until <time dateTime={expiresAt}>{expiry.ends}</time>
      </span>
    </>
  );
}

/** The secret of a token just created, with a read-only field to copy it from. */
function NewSecret({ created, onDone }: { created: CreatedToken; onDone(): void }) {
  const fieldId = useId();
  const warningId = useId();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);

  async function copy() {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
    } catch {
      setCopied(false);
      toast.error('Copying failed: select the secret and copy it yourself.');
    }
  }

  return (
    <div className="dp-secret" role="region" aria-label={`Secret of the token ${created.token.label}`}>
      <p id={warningId} className="dp-secret__warning">
        <strong>Copy this secret now: it is shown once.</strong> The registry keeps only its hash; it cannot show it
        again.
      </p>
      <label className="vx-label" htmlFor={fieldId}>
        Secret of {created.token.label}
      </label>
      <div className="vx-input-group">
        <input
          ref={field}
          id={fieldId}
          className="vx-input dp-secret__value"
          readOnly
          value={created.secret}
          aria-describedby={warningId}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="vx-btn" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="vx-btn vx-btn-primary" onClick={onDone}>
          Done
        </button>
      </div>
      <p className="vx-hint" role="status">
        {copied ? 'Copied to the clipboard.' : ''}
      </p>
    </div>
  );
}

export function TokensSection({ remotes }: { remotes: readonly string[] }) {
  const headingId = useId();
  const labelId = useId();
  const scopeId = useId();
  const newRemoteId = useId();
  const expiryId = useId();
  const expiryHintId = useId();
  const { data: tokens = NO_TOKENS, isPending: loading, error } = useQueryNow(tokensQuery);
  const [loadError, setLoadError] = useState<string | null>(null);
  useQueryError(error, (failure) => setLoadError(serverMessage(failure) ?? 'Failed to load the deploy tokens'));
  const createToken = useCreateToken();
  const revokeToken = useRevokeToken();
  const [label, setLabel] = useState('');
  const [scope, setScope] = useState(ALL_REMOTES);
  const [newRemote, setNewRemote] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  // Expiry is judged as of the page's opening.
  const [now] = useState(Date.now);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!label.trim()) return setFormError(TOKEN_MESSAGES.label);
    if (scope === NEW_REMOTE && !newRemote.trim()) return setFormError('Name the new remote the token may deploy.');
    if (!new RegExp(DAY_PATTERN).test(expiresOn)) return setFormError(TOKEN_MESSAGES.expiresOn);
    setFormError(null);
    try {
      // A new team's token names its remote before its first publish (the server checks the name).
      const granted = scope === NEW_REMOTE ? `deploy:${newRemote.trim()}` : scope;
      const answer = await createToken.mutateAsync({ label: label.trim(), scope: granted, expiresOn });
      setCreated(answer);
      setLabel('');
      setExpiresOn('');
    } catch (failure) {
      setFormError(serverMessage(failure) ?? 'The token could not be created.');
    }
  }

  return (
    <section className="vx-card dp-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="vx-card-title">
        Deploy tokens
      </h2>
      <p className="vx-muted">
        A pipeline publishes, promotes, runs canaries and rolls back with a token: for every remote or for one.
      </p>
      <form className="dp-form" aria-label="Create a deploy token" noValidate onSubmit={(event) => void submit(event)}>
        <div className="vx-field">
          <label className="vx-label" htmlFor={labelId}>
            Label
          </label>
          <input
            id={labelId}
            className="vx-input"
            maxLength={100}
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
      {created && <NewSecret created={created} onDone={() => setCreated(null)} />}
      {loadError && (
        <p className="vx-notice vx-notice--error" role="alert">
          {loadError}
        </p>
      )}
      <div className="vx-table-wrap">
        <table className="vx-table dp-table" aria-busy={loading || undefined}>
          <caption className="dp-caption">Deploy tokens</caption>
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Scope</th>
              <th scope="col">Valid through</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {loading ? (
              <TableNotice columns={7}>Loading tokens…</TableNotice>
            ) : tokens.length === 0 ? (
              <TableNotice columns={7}>No deploy tokens</TableNotice>
            ) : (
              tokens.map((token) => {
                const state = status(token, now);
                return (
                  <tr key={token.id}>
                    <th scope="row">{token.label}</th>
                    <td>{scopeLabel(token.scope)}</td>
                    <td>
                      <Expiry expiresAt={token.expiresAt} />
                    </td>
                    <td>
                      {token.createdBy}, {formatDateTime(token.createdAt)}
                    </td>
                    <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never'}</td>
                    <td>{state}</td>
                    <td>
                      {state === 'Active' && (
                        <button
                          type="button"
                          className="vx-btn vx-btn-danger dp-action"
                          aria-label={`Revoke the token ${token.label}`}
                          onClick={() => setRevoking(token)}
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      {revoking && (
        <ConfirmDialog
          title={`Revoke the token ${revoking.label}`}
          message={`Revoke the token "${revoking.label}" (${scopeLabel(revoking.scope)})? Pipelines using it can no longer deploy. This cannot be undone.`}
          confirmLabel="Revoke"
          danger
          failedText="The token could not be revoked."
          onConfirm={async () => {
            await revokeToken.mutateAsync(revoking.id);
            toast.success(`The token ${revoking.label} is revoked.`);
          }}
          onClose={() => setRevoking(null)}
        />
      )}
    </section>
  );
}
