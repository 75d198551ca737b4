// The table of deploy tokens (docs/screens.md#deployments): a token works through its last valid
// day in UTC, as the server applies it, and the table says so (@veritas/shared/access-tokens).
import { formatDateTime, type AccessToken } from '@veritas/shared';
import { DataTable, type Column } from '@veritas/shared/table';
import { useState, type ReactNode } from 'react';
import { TokenExpiryText } from '@veritas/shared/access-tokens';

export const ALL_REMOTES = 'deploy:*';

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

export interface TokensTableProps {
  tokens: readonly AccessToken[];
  loading: boolean;
  error: ReactNode;
  onRevoke(token: AccessToken): void;
}

export function TokensTable({ tokens, loading, error, onRevoke }: TokensTableProps) {
  // Expiry is judged as of the page's opening.
  const [now] = useState(Date.now);
  const columns: Column<AccessToken>[] = [
    { header: 'Label', cell: (token) => token.label, rowHeader: true },
    { header: 'Scope', cell: (token) => scopeLabel(token.scope) },
    { header: 'Valid through', cell: (token) => <TokenExpiryText expiresAt={token.expiresAt} /> },
    { header: 'Created', cell: (token) => `${token.createdBy}, ${formatDateTime(token.createdAt)}` },
    { header: 'Last used', cell: (token) => (token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never') },
    { header: 'Status', cell: (token) => status(token, now) },
    {
      header: 'Actions',
      cell: (token) =>
        status(token, now) === 'Active' && (
          <button
            type="button"
            className="vx-btn vx-btn-danger dp-action"
            aria-label={`Revoke the token ${token.label}`}
            onClick={() => onRevoke(token)}
          >
            Revoke
          </button>
        ),
    },
  ];
  return (
    <DataTable
      caption="Deploy tokens"
      captionClassName="dp-caption"
      className="vx-table"
      columns={columns}
      rows={tokens}
      rowKey={(token) => token.id}
      loading={loading && 'Loading tokens…'}
      error={error}
      empty="No deploy tokens"
    />
  );
}
