// API keys (docs/screens.md#integrations): create one, see its secret once, list them, revoke one
// after the browser's confirmation (as Deactivate Users asks).
import { serverMessage, type AccessToken, type CreatedToken } from '@veritas/shared';
import { NewTokenSecret } from '@veritas/shared/access-tokens';
import { useQueryNow } from '@veritas/shared/query';
import { useIdsUnderWay } from '@veritas/shared/table';
import { useEffect, useId, useRef, useState } from 'react';
import { keysQuery, useRevokeKey } from './api/keys';
import { KeyForm } from './key-form';
import { KeysTable, scopesText } from './keys-table';

export const KEYS_MESSAGES = {
  loadFailed: 'Failed to load the API keys',
  confirmRevoke: (key: AccessToken) =>
    `Revoke the key "${key.label}" (${scopesText(key.scope)})? Systems using it can no longer call the API. This cannot be undone.`,
  revoked: (key: AccessToken) => `The key ${key.label} is revoked.`,
  revokeFailed: 'The key could not be revoked.',
} as const;

const NO_KEYS: AccessToken[] = [];

export function ApiKeysSection() {
  const headingId = useId();
  const { data, isPending: loading, error } = useQueryNow(keysQuery);
  // Shown in place of the rows while there are none to show.
  const loadError = error && !data ? (serverMessage(error) ?? KEYS_MESSAGES.loadFailed) : null;
  const revokeKey = useRevokeKey();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const revoking = useIdsUnderWay();
  // What the last revocation came to: a success, said in the status line, or a failure.
  const [revoked, setRevoked] = useState<{ text: string } | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const statusLine = useRef<HTMLParagraphElement>(null);

  // The row's Revoke button is gone: the focus goes to the line that says what happened.
  useEffect(() => {
    if (revoked) statusLine.current?.focus();
  }, [revoked]);

  async function revoke(key: AccessToken) {
    if (!window.confirm(KEYS_MESSAGES.confirmRevoke(key))) return;
    setRevoked(null);
    setRevokeError(null);
    await revoking.whileUnderWay(key.id, async () => {
      try {
        // The list is fetched again before the button goes.
        await revokeKey.mutateAsync(key.id);
        setRevoked({ text: KEYS_MESSAGES.revoked(key) });
      } catch (failure) {
        setRevokeError(serverMessage(failure) ?? KEYS_MESSAGES.revokeFailed);
      }
    });
  }

  return (
    <section className="vx-card ig-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="vx-card-title">
        API keys
      </h2>
      <p className="vx-muted ig-intro">
        An order system calls the Veritas API with a key: it sends shipments, reads records and cases, or resolves
        cases, as its scopes allow.
      </p>
      <KeyForm
        onCreated={(answer) => {
          setRevoked(null);
          setRevokeError(null);
          setCreated(answer);
        }}
      />
      {created && (
        <NewTokenSecret key={created.token.id} created={created} noun="key" onDone={() => setCreated(null)} />
      )}
      <p
        ref={statusLine}
        tabIndex={-1}
        className={revoked ? 'vx-notice vx-notice--success' : 'vx-sr-only'}
        role="status"
      >
        {revoked?.text}
      </p>
      {revokeError && (
        <p className="vx-notice vx-notice--error" role="alert">
          {revokeError}
        </p>
      )}
      <KeysTable
        keys={data ?? NO_KEYS}
        loading={loading}
        error={loadError}
        revoking={revoking.isUnderWay}
        onRevoke={(key) => void revoke(key)}
      />
    </section>
  );
}
