// The Cases queue (route /Cases, remote.json): the cases of flagged devices by due time, a page of
// 50 at a time, under filters kept in the URL query; saved views, the CSV export, bulk assign and
// resolve jobs for the roles that may run them, the due times for a super_admin, and live changes. Default export: the shell's page.
import { httpStatus, ListCount, LoadFailed, serverMessage, useSearchParams, useSession } from '@veritas/shared';
import { canRunCaseJobs, canSetCaseDueTimes } from '@veritas/shared/case-vocabulary';
import { keepPreviousData, useInfiniteQueryNow, useQueryNow } from '@veritas/shared/query';
import { MorePages } from '@veritas/shared/table';
import { useEffect, useId, useMemo, useState } from 'react';
import { casePagesQuery, caseCountQuery, exportHref } from './api/cases';
import { BulkActions } from './queue/bulk-actions';
import { filterFromParams, paramsOfFilter, queryOfFilter, type CaseFilter } from './queue/case-filter';
import { CaseFilters } from './queue/case-filters';
import { CaseTable } from './queue/case-table';
import { DueTimes } from './queue/due-times';
import { SavedViews } from './queue/saved-views';
import { useCaseSelection } from './queue/use-case-selection';
import { useLiveCases } from './queue/use-live-cases';
import './queue/cases.css';

/** The page's heading; remote.json's page title names it in the console's loading and error states. */
export const TITLE = 'Cases';

export const MESSAGES = {
  loading: 'Loading cases…',
  loadFailed: 'Failed to load the cases',
  moreFailed: 'Failed to load more cases',
  countFailed: 'The cases could not be counted.',
} as const;

/** Overdue is judged again this often while the page is open. */
export const NOW_EVERY_MS = 60_000;

const number = (n: number) => n.toLocaleString('en-US');

/** The count line: "N cases", or "at least N cases" when the count stopped there. */
export const countText = ({ total, capped }: { total: number; capped: boolean }) =>
  `${capped ? 'at least ' : ''}${number(total)} ${total === 1 && !capped ? 'case' : 'cases'}`;

/** The time now, in ms, renewed every `every` ms. */
function useNow(every: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), every);
    return () => clearInterval(timer);
  }, [every]);
  return now;
}

export default function CasesPage() {
  const headingId = useId();
  const [params, setParams] = useSearchParams();
  const filter = filterFromParams(params);
  const query = queryOfFilter(filter);
  const queryText = JSON.stringify(query);
  const bulk = useSession((s) => canRunCaseJobs(s.role));
  const setsDueTimes = useSession((s) => canSetCaseDueTimes(s.role));
  const now = useNow(NOW_EVERY_MS);
  useLiveCases();

  const casePages = useInfiniteQueryNow({ ...casePagesQuery(query), placeholderData: keepPreviousData });
  const {
    data,
    error,
    isPending,
    isPlaceholderData,
    isFetchNextPageError,
    isFetchingNextPage,
    isFetching,
    hasNextPage,
    refetch,
  } = casePages;
  const cases = useMemo(() => data?.pages.flatMap((page) => page.cases) ?? [], [data]);
  const {
    data: count,
    error: countError,
    isPlaceholderData: countIsPrevious,
    refetch: refetchCount,
  } = useQueryNow({
    ...caseCountQuery(query),
    placeholderData: keepPreviousData,
  });
  const selection = useCaseSelection(queryText, cases);

  // Each filter applied is an entry of the browser's history: Back returns to the filters before.
  const apply = (next: CaseFilter) => setParams(paramsOfFilter(next));
  const forbidden = httpStatus(error) === 403;

  return (
    <section className="vx-page cq-page" aria-labelledby={headingId}>
      <header>
        <h1 id={headingId} className="vx-page-title">
          {TITLE}
        </h1>
        <p className="vx-muted cq-subtitle">Cases of flagged devices, soonest due first.</p>
      </header>

      <SavedViews filter={filter} onApply={apply} />
      <CaseFilters filter={filter} onApply={apply} />
      {setsDueTimes && <DueTimes />}

      <div className="cq-toolbar">
        <ListCount
          as="p"
          className="cq-count vx-muted"
          // The count announced is the filter's own, not the previous one kept while it is counted.
          countOf={countIsPrevious ? null : queryText}
          text={count ? countText(count) : countError ? MESSAGES.countFailed : ''}
        />
        {!forbidden && (
          <a className="vx-btn" href={exportHref(query)} download>
            Export CSV
          </a>
        )}
      </div>

      {bulk && !forbidden && (
        <BulkActions
          selection={selection}
          count={count}
          filter={filter}
          rows={cases}
          allLoaded={!!data && !isPlaceholderData && !hasNextPage}
        />
      )}

      <LoadFailed
        // Another filter's read starts afresh: the failure kept is that of the filter read.
        key={queryText}
        failure={isFetchNextPageError ? null : error}
        fetching={isFetching}
        message={(failure) => serverMessage(failure) ?? MESSAGES.loadFailed}
        // Retry reads the queue and its count again: the count may have failed with it.
        onRetry={
          forbidden
            ? undefined
            : () => {
                void refetch();
                void refetchCount();
              }
        }
      />

      {data ? (
        <CaseTable
          cases={cases}
          now={now}
          busy={isPlaceholderData || isFetchingNextPage}
          selection={bulk ? selection : null}
        />
      ) : (
        isPending && (
          <p className="vx-loading vx-muted" role="status">
            {MESSAGES.loading}
          </p>
        )
      )}

      {data && (
        <MorePages
          query={casePages}
          pages={data.pages.length}
          texts={{ more: 'Load more', loading: 'Loading more cases…', none: 'All cases loaded' }}
          failure={(failure) => serverMessage(failure) ?? MESSAGES.moreFailed}
        />
      )}
    </section>
  );
}
