// The history of a remote's rollout on the Deployments page (docs/screens.md#deployments): every
// change, newest first. The rollouts' answer holds the newest page; a remote with a page's worth of
// changes or more reads its pages (registry/remotes/{remote}/history/), and "Show older changes"
// reads the next one.
import { formatDateTime, LoadFailed, serverMessage, type RolloutChange } from '@veritas/shared';
import { useInfiniteQuery } from '@veritas/shared/query';
import { DataTable, MorePages, type Column } from '@veritas/shared/table';
import { useMemo } from 'react';
import { HISTORY_PAGE_SIZE, historyPagesQuery } from './api';
import { v } from './rollout-requests';

const ACTION_LABELS: Record<RolloutChange['action'], string> = {
  promote: 'Promote',
  canary: 'Canary',
  'stop-canary': 'Stop canary',
  rollback: 'Rollback',
  retire: 'Retire',
};

const COLUMNS: Column<RolloutChange>[] = [
  { header: 'Action', cell: (change) => ACTION_LABELS[change.action] ?? change.action },
  { header: 'From → to', cell: (change) => `${v(change.from)} → ${v(change.to)}` },
  { header: 'Percent', cell: (change) => (change.percent === null ? '—' : `${change.percent}%`) },
  { header: 'By', cell: (change) => change.by },
  { header: 'When', cell: (change) => formatDateTime(change.at) },
];

const changesText = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'} shown`;

export const HISTORY_MESSAGES = {
  loadFailed: 'Failed to load the older changes',
  olderFailed: 'Failed to load older changes',
} as const;

/** `newest`: the changes the rollouts' answer holds, newest first (a page at most). */
export function RolloutHistory({ remote, newest }: { remote: string; newest: readonly RolloutChange[] }) {
  // Fewer than a page: the rollouts' answer holds every change, nothing more to read.
  const paged = newest.length >= HISTORY_PAGE_SIZE;
  const history = useInfiniteQuery({ ...historyPagesQuery(remote), enabled: paged });
  const { data, error, isFetchNextPageError, isFetchingNextPage, refetch, isFetching } = history;
  const pages = paged ? data?.pages : undefined;
  const changes = useMemo(() => (pages ? pages.flatMap((page) => page.changes) : newest), [pages, newest]);

  return (
    <>
      <DataTable
        caption={`${remote}: history`}
        captionClassName="dp-caption"
        className="vx-table"
        columns={COLUMNS}
        rows={changes}
        rowKey={(change) => change.id}
        busy={isFetchingNextPage}
        empty="No changes yet"
      />
      {paged && (
        <LoadFailed
          className="dp-older"
          failure={isFetchNextPageError ? null : error}
          fetching={isFetching}
          message={(failure) => serverMessage(failure) ?? HISTORY_MESSAGES.loadFailed}
          onRetry={() => void refetch()}
        />
      )}
      {pages && (
        <MorePages
          className="dp-older"
          query={history}
          pages={pages.length}
          texts={{ more: 'Show older changes', loading: 'Loading older changes…', none: 'No older changes' }}
          failure={(failure) => serverMessage(failure) ?? HISTORY_MESSAGES.olderFailed}
        >
          <span className="vx-hint" role="status">
            {changesText(changes.length)}
          </span>
        </MorePages>
      )}
    </>
  );
}
