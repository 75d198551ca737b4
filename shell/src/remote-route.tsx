import { Component, Suspense, useEffect, useReducer, useState, type ReactNode } from 'react';
import { useLocation, useSession, type ComposedPage, type ServerFeature } from '@veritas/shared';
import { startFirstCalls } from '@veritas/shared/first-calls';
import type { PageCode } from './page-code';
import { pageCode } from './page-codes';
import { usePageTitle } from './page-arrival';
import './status.css';

/** The page and URL query whose first calls the page load started (startFirstCallsAtLoad). */
let startedAtLoad: string | null = null;

const visitOf = (page: ComposedPage, search: string) => `${page.path}?${search}`;

/**
 * On a page load by a user the document was composed for, the page's first calls start with the
 * shell's code, before the sign-in check answers (the document's composition tells the server's
 * features): the first rows wait for neither. The route's first render then finds them under way
 * rather than starting them again (docs/architecture.md#first-rows).
 */
export function startFirstCallsAtLoad(page: ComposedPage, search: string, features: readonly ServerFeature[]): void {
  if (!page.firstCalls) return;
  startFirstCalls(page.firstCalls, search, features);
  startedAtLoad = visitOf(page, search);
}

interface BoundaryProps {
  title: string;
  onRetry(): void;
  children: ReactNode;
}

/** Keeps a page that cannot be loaded, or that fails while rendering, inside the main area. */
class RemoteErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(`${this.props.title} could not be loaded`, error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="vx-card shell-remote-error" role="alert">
        <h1 className="vx-card-title">{this.props.title} could not be loaded</h1>
        <p className="vx-muted">
          This part of the console is unavailable right now. The rest of the console keeps working.
        </p>
        <button type="button" className="vx-btn vx-btn-primary" onClick={this.props.onRetry}>
          Retry
        </button>
      </section>
    );
  }
}

/** The page once its code is in; until then a loading state that is not React's fallback (page-code.ts). */
function PageOnceLoaded({ title, code }: { title: string; code: PageCode }) {
  const module = code.module;
  const [, arrived] = useReducer((n: number) => n + 1, 0);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  useEffect(() => {
    if (module) return;
    let current = true;
    code.load.then(
      () => current && arrived(),
      (error: unknown) => current && setFailure({ error }),
    );
    return () => {
      current = false;
    };
  }, [code, module]);
  // To the error boundary around it.
  if (failure) throw failure.error;
  const loading = (
    <p className="shell-status" role="status">
      Loading {title}…
    </p>
  );
  if (!module) return loading;
  const Page = code.component;
  return (
    <Suspense fallback={loading}>
      <Page />
    </Suspense>
  );
}

/**
 * A lazily loaded page of the protected layout: loading state, error card with Retry. `choose`
 * answers its code when the route is entered, and again on Retry.
 */
export function LoadedPage({ title, choose }: { title: string; choose: () => PageCode }) {
  usePageTitle(title);
  const [attempt, setAttempt] = useState(0);
  // Chosen when the route is entered and taken anew on Retry (a failed load was dropped); a
  // rollout meanwhile does not replace a page already shown.
  const [code, setCode] = useState(choose);
  const retry = () => {
    setCode(choose);
    setAttempt((n) => n + 1);
  };
  return (
    <RemoteErrorBoundary key={attempt} title={title} onRetry={retry}>
      <PageOnceLoaded title={title} code={code} />
    </RemoteErrorBoundary>
  );
}

/**
 * A page of the protected layout, rendered by its remote. Entering the route starts the first
 * calls the page declares together with its code (docs/architecture.md#first-rows).
 */
export function RemoteRoute({ page }: { page: ComposedPage }) {
  const { search } = useLocation();
  const choose = () => {
    // Started by the page load for this very visit (startFirstCallsAtLoad): once only. Any other
    // entry starts this page's, dropping those of the page before that were not taken.
    if (startedAtLoad === visitOf(page, search)) startedAtLoad = null;
    else startFirstCalls(page.firstCalls ?? [], search, useSession.getState().features);
    return pageCode(page);
  };
  return <LoadedPage title={page.title} choose={choose} />;
}
