// The table of API keys (docs/screens.md#integrations): what each key may call, in the words of
// the scope labels, when it expires, when it was last used, who created it, and Revoke while it
// works.
import { BusyButton, formatDateTime, type AccessToken } from '@veritas/shared';
import { API_KEY_SCOPE_LABELS, scopesOf, type ApiKeyScope } from '@veritas/shared/domain';
import { DataTable, type Column } from '@veritas/shared/table';
import { TokenExpiryText } from '@veritas/shared/access-tokens';
import { useState, type ReactNode } from 'react';

export const TABLE_MESSAGES = {
  caption: 'API keys',
  loading: 'Loading API keys…',
  empty: 'No API keys yet.',
  never: 'Never',
  expired: 'Expired',
  active: 'Active',
} as const;

/** A scope as the screen names it: its label, or the scope itself when this console knows it not. */
const scopeName = (scope: string) => API_KEY_SCOPE_LABELS[scope as ApiKeyScope] ?? scope;

/** What a key may call: its scopes' labels, in the key's order. */
export const scopesText = (scope: string) => scopesOf(scope).map(scopeName).join(', ');

/** Whether the key still works at `now`: neither revoked nor past `expiresAt` (the server takes it until then). */
export const isActive = (key: AccessToken, now: number) => !key.revokedAt && Date.parse(key.expiresAt) > now;

const When = ({ iso }: { iso: string }) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

export interface KeysTableProps {
  keys: readonly AccessToken[];
  loading: boolean;
  error: ReactNode;
  /** Whether the key's revocation is under way: its button says so and takes no second click. */
  revoking(id: number): boolean;
  onRevoke(key: AccessToken): void;
}

export function KeysTable({ keys, loading, error, revoking, onRevoke }: KeysTableProps) {
  // Expiry is judged as of the page's opening, as the Deployments page judges deploy tokens.
  const [now] = useState(Date.now);

  function status(key: AccessToken) {
    if (key.revokedAt) {
      return (
        <>
          Revoked <When iso={key.revokedAt} />
        </>
      );
    }
    if (!isActive(key, now)) return TABLE_MESSAGES.expired;
    const busy = revoking(key.id);
    return (
      <span className="ig-status">
        {TABLE_MESSAGES.active}
        <BusyButton
          className="vx-btn vx-btn-danger ig-action"
          aria-label={`Revoke the key ${key.label}`}
          busy={busy}
          onClick={() => onRevoke(key)}
        >
          {busy ? 'Revoking…' : 'Revoke'}
        </BusyButton>
      </span>
    );
  }

  const columns: Column<AccessToken>[] = [
    { header: 'Label', cell: (key) => key.label, rowHeader: true },
    { header: 'Scopes', cell: (key) => scopesText(key.scope) },
    { header: 'Valid through', cell: (key) => <TokenExpiryText expiresAt={key.expiresAt} /> },
    { header: 'Last used', cell: (key) => (key.lastUsedAt ? <When iso={key.lastUsedAt} /> : TABLE_MESSAGES.never) },
    {
      header: 'Created by',
      cell: (key) => (
        <>
          {key.createdBy}
          <span className="ig-sub">
            on <When iso={key.createdAt} />
          </span>
        </>
      ),
    },
    { header: 'Status', cell: status },
  ];

  return (
    <DataTable
      caption={TABLE_MESSAGES.caption}
      captionClassName="vx-sr-only"
      className="vx-table"
      columns={columns}
      rows={keys}
      rowKey={(key) => key.id}
      rowAttributes={(key) => ({ 'data-id': key.id })}
      loading={loading && TABLE_MESSAGES.loading}
      error={error}
      empty={TABLE_MESSAGES.empty}
    />
  );
}
