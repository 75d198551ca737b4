// The page /Case?id=N of the remote 'cases': one case, its facts, the device's steps, what the
// viewer may do with it, its evidence and its timeline, kept current by the live event `cases`.
// Its route and who may open it are in remote.json. Default export: the shell's page.
import {
  httpStatus,
  Link,
  LoadFailed,
  serverMessage,
  useDocumentTitle,
  useLiveEvents,
  useSearchParams,
} from '@veritas/shared';
import { refreshQueries, useQueryClient, useQueryNow } from '@veritas/shared/query';
import type { ReactNode } from 'react';
import { caseQuery } from './api/cases';
import { CaseActions } from './case/case-actions';
import { CaseFacts } from './case/case-facts';
import { CasePhotos } from './case/case-photos';
import { caseName } from './case/case-text';
import { CaseTimeline } from './case/case-timeline';
import { DeviceSteps } from './case/device-steps';
import './case/case.css';

export const TITLE = 'Case';

export const PAGE_MESSAGES = {
  loading: 'Loading the case…',
  noId: 'The address names no case: open one from the list of cases.',
  notFound: (id: number) => `Case #${id} was not found.`,
  forbidden: (id: number) => `You may not open case #${id}.`,
  loadFailed: 'Failed to load the case.',
} as const;

/** The case id of `?id=`, or null when it is not a case id. */
export function caseIdOf(value: string | null): number | null {
  return value && /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : null;
}

interface PageProps {
  heading: string;
  /** What the browser's tab names: the case once it is shown; TITLE while it loads or is missing. */
  tabTitle?: string;
  busy?: boolean;
  children: ReactNode;
}

function Page({ heading, tabTitle = TITLE, busy, children }: PageProps) {
  // Set here, in each state: the shell names the route 'Case' once, and another case (or none)
  // opened from this one is the same route.
  useDocumentTitle(tabTitle);
  return (
    <section className="vx-page cp-page" aria-labelledby="cp-heading" aria-busy={busy || undefined}>
      <nav aria-label="Breadcrumb" className="cp-back">
        <Link to="/Cases">All cases</Link>
      </nav>
      <h1 id="cp-heading" className="vx-page-title">
        {heading}
      </h1>
      {children}
    </section>
  );
}

function CaseView({ id }: { id: number }) {
  const client = useQueryClient();
  const query = caseQuery(id);
  const { data, error, isPending, isFetching, refetch } = useQueryNow(query);

  // Another viewer's change of this case (or a reset of the stream): read it again.
  useLiveEvents('cases', (message) => {
    if (message.type === 'reset' || message.data.case.id === id)
      void refreshQueries(client, { queryKey: query.queryKey });
  });

  const status = httpStatus(error);
  const heading = caseName(id);
  if (!data && (status === 404 || status === 403))
    return (
      <Page heading={heading}>
        <div className="vx-notice vx-notice--error" role="alert">
          <p>{serverMessage(error) ?? (status === 404 ? PAGE_MESSAGES.notFound(id) : PAGE_MESSAGES.forbidden(id))}</p>
          <p>
            <Link to="/Cases">Back to all cases</Link>
          </p>
        </div>
      </Page>
    );
  if (!data)
    return (
      <Page heading={heading} busy={isPending}>
        <LoadFailed
          failure={error}
          fetching={isFetching}
          message={(failure) => serverMessage(failure) ?? PAGE_MESSAGES.loadFailed}
          onRetry={() => void refetch()}
        />
        {!error && (
          <p className="vx-loading vx-muted" role="status">
            {PAGE_MESSAGES.loading}
          </p>
        )}
      </Page>
    );

  return (
    <Page heading={heading} tabTitle={heading} busy={isFetching}>
      <LoadFailed
        failure={error}
        fetching={isFetching}
        message={(failure) => serverMessage(failure) ?? PAGE_MESSAGES.loadFailed}
        onRetry={() => void refetch()}
      />
      <div className="cp-layout" data-testid="case" data-version={data.case.version}>
        <div className="cp-main">
          <CaseFacts detail={data} />
          <DeviceSteps record={data.record} />
          <CasePhotos detail={data} />
        </div>
        <div className="cp-side">
          <CaseActions detail={data} />
          <CaseTimeline timeline={data.timeline} />
        </div>
      </div>
    </Page>
  );
}

export default function CasePage() {
  const [params] = useSearchParams();
  const id = caseIdOf(params.get('id'));
  if (id === null)
    return (
      <Page heading={TITLE}>
        <div className="vx-notice vx-notice--error" role="alert">
          <p>{PAGE_MESSAGES.noId}</p>
          <p>
            <Link to="/Cases">Back to all cases</Link>
          </p>
        </div>
      </Page>
    );
  // Keyed by id: another case is another page (its forms and notices start afresh).
  return <CaseView key={id} id={id} />;
}
