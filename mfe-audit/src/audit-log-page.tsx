// Audit Log (route AuditLog, docs/screens.md#audit-log): the server's trail of security-relevant
// actions, newest first, a page of 50 at a time, under filters kept in the URL query, with its
// CSV export, and new entries that match the filters added live. Admins and super admins.
// Default export: the shell's page.
import { httpStatus, LoadFailed, serverMessage, useLiveEvents, useSearchParams } from '@veritas/shared';
import { keepPreviousData, refreshQueries, useInfiniteQueryNow, useQueryClient } from '@veritas/shared/query';
import { MorePages } from '@veritas/shared/table';
import { useMemo, useState } from 'react';
import { AUDIT_KEY, addLiveEntry, auditPagesQuery, exportHref } from './api/audit';
import { filterFromParams, paramsOfFilter, queryOfFilter, type AuditFilter } from './audit-filter';
import { AuditFilters } from './audit-filters';
import { AuditTable } from './audit-table';
import './audit.css';

export const MESSAGES = {
  loading: 'Loading audit log…',
  loadFailed: 'Failed to load the audit log',
  olderFailed: 'Failed to load older entries',
} as const;

const entriesText = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;
const freshText = (n: number) => `${n} new ${n === 1 ? 'entry' : 'entries'}`;

/** What a failed call says: the server's message (its 403 says who may read), else the fallback. */
const failureText = (error: unknown, fallback: string) => serverMessage(error) ?? fallback;

export default function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const filter = filterFromParams(params);
  const query = queryOfFilter(filter);
  const queryText = JSON.stringify(query);
  const client = useQueryClient();
  const entryPages = useInfiniteQueryNow({ ...auditPagesQuery(query), placeholderData: keepPreviousData });
  const { data, error, isPending, isPlaceholderData, isFetchNextPageError, hasNextPage, isFetching, refetch } =
    entryPages;
  const entries = useMemo(() => data?.pages.flatMap((page) => page.entries) ?? [], [data]);

  // How many live entries were added to the entries of these filters.
  const [fresh, setFresh] = useState({ query: queryText, count: 0 });
  const freshCount = fresh.query === queryText ? fresh.count : 0;
  useLiveEvents('audit', (message) => {
    if (message.type === 'reset') return void refreshQueries(client, { queryKey: AUDIT_KEY });
    if (addLiveEntry(client, query, message.data))
      setFresh((current) => ({ query: queryText, count: (current.query === queryText ? current.count : 0) + 1 }));
  });

  // Each filter applied is an entry of the browser's history: Back returns to the filters before.
  const apply = (next: AuditFilter) => setParams(paramsOfFilter(next));
  const forbidden = httpStatus(error) === 403;

  return (
    <section className="vx-page al-page">
      <header>
        <h1 className="vx-page-title">Audit Log</h1>
        <p className="vx-muted al-subtitle">Security-relevant actions recorded by the server, newest first.</p>
      </header>

      <AuditFilters filter={filter} onApply={apply} />

      <div className="al-toolbar">
        {/* Announced as it changes (filters applied, older entries read): WCAG 4.1.3's status message. */}
        <p className="al-count vx-muted" aria-live="polite">
          {data && `${entriesText(entries.length)} shown${hasNextPage ? '; older entries follow' : ''}`}
        </p>
        <p className="al-fresh" role="status">
          {freshCount > 0 && freshText(freshCount)}
        </p>
        {!forbidden && (
          <a className="vx-btn" href={exportHref(query)} download>
            Export CSV
          </a>
        )}
      </div>

      <LoadFailed
        // Another filter's read starts afresh: the failure kept is that of the filter read.
        key={queryText}
        failure={isFetchNextPageError ? null : error}
        fetching={isFetching}
        message={(failure) => failureText(failure, MESSAGES.loadFailed)}
        onRetry={forbidden ? undefined : () => void refetch()}
      />

      {data ? (
        <AuditTable entries={entries} busy={isPlaceholderData} more={hasNextPage} />
      ) : (
        isPending && (
          <p className="vx-loading vx-muted" role="status">
            {MESSAGES.loading}
          </p>
        )
      )}

      {data && (
        <MorePages
          query={entryPages}
          pages={data.pages.length}
          texts={{ more: 'Show older entries', loading: 'Loading older entries…', none: 'No older entries' }}
          failure={(failure) => failureText(failure, MESSAGES.olderFailed)}
        />
      )}
    </section>
  );
}
