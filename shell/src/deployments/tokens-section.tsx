// Deploy tokens (super_admin; docs/screens.md#deployments): create one for all remotes or one
// remote, see its secret once, list them, revoke one.
import { serverMessage, toast, type AccessToken, type CreatedToken } from '@veritas/shared';
import { NewTokenSecret } from '@veritas/shared/access-tokens';
import { useQueryNow } from '@veritas/shared/query';
import { useId, useState } from 'react';
import { tokensQuery, useRevokeToken } from './api';
import { ConfirmDialog } from './confirm-dialog';
import { useFocusAfterChange } from './focus-after-change';
import { TokenForm } from './token-form';
import { scopeLabel, TokensTable } from './tokens-table';

const NO_TOKENS: AccessToken[] = [];

export function TokensSection({ remotes }: { remotes: readonly string[] }) {
  const headingId = useId();
  const { data, isPending: loading, error } = useQueryNow(tokensQuery);
  // Shown in place of the rows while there are none to show.
  const loadError = error && !data ? (serverMessage(error) ?? 'Failed to load the deploy tokens') : null;
  const revokeToken = useRevokeToken();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  const { heading, changing } = useFocusAfterChange<HTMLHeadingElement>(data, revoking !== null);

  return (
    <section className="vx-card dp-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="vx-card-title" ref={heading} tabIndex={-1}>
        Deploy tokens
      </h2>
      <p className="vx-muted">
        A pipeline publishes, promotes, runs canaries and rolls back with a token: for every remote or for one.
      </p>
      <TokenForm remotes={remotes} onCreated={setCreated} />
      {created && <NewTokenSecret created={created} noun="token" onDone={() => setCreated(null)} />}
      <TokensTable tokens={data ?? NO_TOKENS} loading={loading} error={loadError} onRevoke={setRevoking} />
      {revoking && (
        <ConfirmDialog
          title={`Revoke the token ${revoking.label}`}
          message={`Revoke the token "${revoking.label}" (${scopeLabel(revoking.scope)})? Pipelines using it can no longer deploy. This cannot be undone.`}
          confirmLabel="Revoke"
          danger
          failedText="The token could not be revoked."
          onConfirm={async () => {
            changing();
            await revokeToken.mutateAsync(revoking.id);
            toast.success(`The token ${revoking.label} is revoked.`);
          }}
          onClose={() => setRevoking(null)}
        />
      )}
    </section>
  );
}
