import {
  Component,
  Suspense,
  lazy,
  useState,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import { loadRemotePage, type RemotePage } from './remotes';

// One lazy component per page, kept across navigations; a failed one is dropped so the next
// render (Retry, or coming back to the route) starts a new load.
const lazyPages = new Map<string, LazyExoticComponent<ComponentType>>();

function lazyPage(page: RemotePage): LazyExoticComponent<ComponentType> {
  let component = lazyPages.get(page.id);
  if (!component) {
    component = lazy(() =>
      loadRemotePage(page).catch((error: unknown) => {
        lazyPages.delete(page.id);
        throw error;
      }),
    );
    lazyPages.set(page.id, component);
  }
  return component;
}

interface BoundaryProps {
  title: string;
  onRetry(): void;
  children: ReactNode;
}

/** Keeps a remote that is down, or that fails while rendering, inside the main area. */
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
        <h2 className="vx-card-title">{this.props.title} could not be loaded</h2>
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

/** A page of the protected layout, rendered by its remote: loading state, error card with Retry. */
export function RemoteRoute({ page }: { page: RemotePage }) {
  const [attempt, setAttempt] = useState(0);
  // The page's lazy component, taken anew on Retry (a failed load was dropped from lazyPages).
  const [Page, setPage] = useState(() => lazyPage(page));
  const retry = () => {
    setPage(() => lazyPage(page));
    setAttempt((n) => n + 1);
  };
  return (
    <RemoteErrorBoundary key={attempt} title={page.title} onRetry={retry}>
      <Suspense
        fallback={
          <p className="shell-remote-loading" role="status">
            Loading {page.title}…
          </p>
        }
      >
        <Page />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
