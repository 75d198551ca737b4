// Allowed origins (super_admin; docs/screens.md#deployments): the https origins a team's own CDN
// may serve a remote from; add one, list them, remove one.
import { formatDateTime, serverMessage, toast, type AllowedOrigin } from '@veritas/shared';
import { formProblem, OriginPayload } from '@veritas/shared/domain';
import { useQueryNow } from '@veritas/shared/query';
import { DataTable, type Column } from '@veritas/shared/table';
import { useId, useState, type FormEvent } from 'react';
import { originsQuery, useAddOrigin, useRemoveOrigin } from './api';
import { ConfirmDialog } from './confirm-dialog';

const NO_ORIGINS: AllowedOrigin[] = [];

export function OriginsSection() {
  const headingId = useId();
  const originId = useId();
  const hintId = useId();
  const { data, isPending: loading, error } = useQueryNow(originsQuery);
  const origins = data ?? NO_ORIGINS;
  // Shown in place of the rows while there are none to show.
  const loadError = error && !data ? (serverMessage(error) ?? 'Failed to load the allowed origins') : null;
  const addOrigin = useAddOrigin();
  const removeOrigin = useRemoveOrigin();
  const [origin, setOrigin] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  const columns: Column<AllowedOrigin>[] = [
    { header: 'Origin', cell: (item) => item.origin, rowHeader: true },
    { header: 'Added by', cell: (item) => item.addedBy },
    { header: 'Added', cell: (item) => formatDateTime(item.addedAt) },
    {
      header: 'Actions',
      cell: (item) => (
        <button
          type="button"
          className="vx-btn vx-btn-danger dp-action"
          aria-label={`Remove ${item.origin}`}
          onClick={() => setRemoving(item.origin)}
        >
          Remove
        </button>
      ),
    },
  ];

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = origin.trim();
    const problem = formProblem(OriginPayload, { origin: value });
    if (problem) return setFormError(problem);
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
      <DataTable
        caption="Allowed origins"
        captionClassName="dp-caption"
        className="vx-table"
        columns={columns}
        rows={origins}
        rowKey={(item) => item.origin}
        loading={loading && 'Loading origins…'}
        error={loadError}
        empty="No allowed origins"
      />
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
