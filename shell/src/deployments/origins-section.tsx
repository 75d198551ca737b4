// Allowed origins (super_admin; docs/screens.md#deployments): the https origins a team's own CDN
// may serve a remote from; add one, list them, remove one. The form's fault shows under its field
// (@veritas/shared/field-faults).
import { BusyButton, formatDateTime, serverMessage, toast, type AllowedOrigin } from '@veritas/shared';
import { OriginPayload } from '@veritas/shared/domain';
import { FormField, useFieldFaults } from '@veritas/shared/field-faults';
import { useQueryNow } from '@veritas/shared/query';
import { DataTable, type Column } from '@veritas/shared/table';
import { useId, useState, type FormEvent } from 'react';
import { originsQuery, useAddOrigin, useRemoveOrigin } from './api';
import { ConfirmDialog } from './confirm-dialog';
import { useFocusAfterChange } from './focus-after-change';

const NO_ORIGINS: AllowedOrigin[] = [];
const ORIGIN_FIELDS = ['origin'] as const;

export function OriginsSection() {
  const headingId = useId();
  const { data, isPending: loading, error } = useQueryNow(originsQuery);
  const origins = data ?? NO_ORIGINS;
  // Shown in place of the rows while there are none to show.
  const loadError = error && !data ? (serverMessage(error) ?? 'Failed to load the allowed origins') : null;
  const addOrigin = useAddOrigin();
  const removeOrigin = useRemoveOrigin();
  const [origin, setOrigin] = useState('');
  const faults = useFieldFaults(ORIGIN_FIELDS);
  const { formError, check, refused } = faults;
  const [removing, setRemoving] = useState<string | null>(null);
  const { heading, changing } = useFocusAfterChange<HTMLHeadingElement>(data, removing !== null);

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
    if (addOrigin.isPending) return;
    const value = origin.trim();
    if (!check(OriginPayload, { origin: value })) return;
    try {
      await addOrigin.mutateAsync(value);
      setOrigin('');
      toast.success(`${value} is allowed.`);
    } catch (failure) {
      refused(failure, 'The origin could not be added.');
    }
  }

  return (
    <section className="vx-card dp-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="vx-card-title" ref={heading} tabIndex={-1}>
        Allowed origins
      </h2>
      <form className="dp-form" aria-label="Add an allowed origin" noValidate onSubmit={(event) => void submit(event)}>
        <FormField
          faults={faults}
          field="origin"
          label="Origin"
          hint="A team's own CDN may serve a remote's versions from these origins only."
          input={(wiring) => (
            <input
              {...wiring}
              className="vx-input"
              type="url"
              inputMode="url"
              placeholder="https://cdn.example.com"
              autoComplete="off"
              value={origin}
              onChange={(event) => setOrigin(event.target.value)}
            />
          )}
        />
        <BusyButton type="submit" className="vx-btn vx-btn-primary" busy={addOrigin.isPending}>
          Add origin
        </BusyButton>
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
            changing();
            await removeOrigin.mutateAsync(removing);
            toast.success(`${removing} is no longer allowed.`);
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}
