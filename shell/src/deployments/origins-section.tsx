// Allowed origins (super_admin; docs/screens.md#deployments): the https origins a team's own CDN
// may serve a remote from; add one, list them, remove one.
import { formatDateTime, serverMessage, toast, type AllowedOrigin } from '@veritas/shared';
import { useQueryError, useQueryNow } from '@veritas/shared/query';
import { useId, useState, type FormEvent } from 'react';
import { originsQuery, useAddOrigin, useRemoveOrigin } from './api';
import { ConfirmDialog } from './confirm-dialog';
import { TableNotice } from './table-notice';

const NO_ORIGINS: AllowedOrigin[] = [];
/** The registry's rule (OriginPayload): https, a host, maybe a port, nothing after it. */
const ORIGIN = /^https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

export function OriginsSection() {
  const headingId = useId();
  const originId = useId();
  const hintId = useId();
  const { data: origins = NO_ORIGINS, isPending: loading, error } = useQueryNow(originsQuery);
  const [loadError, setLoadError] = useState<string | null>(null);
  useQueryError(error, (failure) => setLoadError(serverMessage(failure) ?? 'Failed to load the allowed origins'));
  const addOrigin = useAddOrigin();
  const removeOrigin = useRemoveOrigin();
  const [origin, setOrigin] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = origin.trim();
    if (!ORIGIN.test(value)) return setFormError('An origin is https://host or https://host:port, nothing after it.');
    setFormError(null);
    try {
      await addOrigin.mutateAsync(value);
      setOrigin('');
      toast.success(`${value} is allowed.`);
    } catch (failure) {
      setFormError(serverMessage(failure) ?? 'The origin could not be added.');
    }
  }

  return (
    <section className="vx-card dp-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="vx-card-title">
        Allowed origins
      </h2>
      <form className="dp-form" aria-label="Add an allowed origin" noValidate onSubmit={(event) => void submit(event)}>
        <div className="vx-field">
          <label className="vx-label" htmlFor={originId}>
            Origin
          </label>
          <input
            id={originId}
            className="vx-input"
            type="url"
            inputMode="url"
            placeholder="https://cdn.example.com"
            autoComplete="off"
            aria-describedby={hintId}
            value={origin}
            onChange={(event) => setOrigin(event.target.value)}
          />
          <p id={hintId} className="vx-hint">
            A team&apos;s own CDN may serve a remote&apos;s versions from these origins only.
          </p>
        </div>
        <button type="submit" className="vx-btn vx-btn-primary" disabled={addOrigin.isPending}>
          Add origin
        </button>
        {formError && (
          <p className="vx-notice vx-notice--error dp-form__error" role="alert">
            {formError}
          </p>
        )}
      </form>
      {loadError && (
        <p className="vx-notice vx-notice--error" role="alert">
          {loadError}
        </p>
      )}
      <div className="vx-table-wrap">
        <table className="vx-table dp-table" aria-busy={loading || undefined}>
          <caption className="dp-caption">Allowed origins</caption>
          <thead>
            <tr>
              <th scope="col">Origin</th>
              <th scope="col">Added by</th>
              <th scope="col">Added</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {loading ? (
              <TableNotice columns={4}>Loading origins…</TableNotice>
            ) : origins.length === 0 ? (
              <TableNotice columns={4}>No allowed origins</TableNotice>
            ) : (
              origins.map((item) => (
                <tr key={item.origin}>
                  <th scope="row">{item.origin}</th>
                  <td>{item.addedBy}</td>
                  <td>{formatDateTime(item.addedAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="vx-btn vx-btn-danger dp-action"
                      aria-label={`Remove ${item.origin}`}
                      onClick={() => setRemoving(item.origin)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {removing && (
        <ConfirmDialog
          title="Remove an allowed origin"
          message={`Remove ${removing} from the allowed origins?`}
          confirmLabel="Remove"
          danger
          failedText="The origin could not be removed."
          onConfirm={async () => {
            await removeOrigin.mutateAsync(removing);
            toast.success(`${removing} is no longer allowed.`);
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}
