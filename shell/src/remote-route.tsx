import {
  Component,
  Suspense,
  lazy,
  useState,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import { useLocation, useSession, type RemoteRouteName } from '@veritas/shared';
import { startFirstData } from '@veritas/shared/first-data';
import { knownLocation, loadRemotePage, locateRemote, remoteOf, type RemoteLocation, type RemotePage } from './remotes';

type PageModule = { default: ComponentType };

// One load and one lazy component per page and entry (the URL of the remote's manifest), kept
// across navigations: a new version of a remote is a new entry, so its pages load anew while a page
// of the old version already shown keeps its component. A failed one is dropped so the next
// render (Retry, or coming back to the route) starts a new load.
const pageLoads = new Map<string, Promise<PageModule>>();
const lazyPages = new Map<string, LazyExoticComponent<ComponentType>>();

const pageKey = (page: RemotePage, location: RemoteLocation) => `${page.id} ${location.entry}`;

function loadPageAt(page: RemotePage, location: RemoteLocation): Promise<PageModule> {
  const key = pageKey(page, location);
  let load = pageLoads.get(key);
  if (!load) {
    load = loadRemotePage(page, location).catch((error: unknown) => {
      pageLoads.delete(key);
      lazyPages.delete(key);
      throw error;
    });
    pageLoads.set(key, load);
  }
  return load;
}

function lazyPageAt(page: RemotePage, location: RemoteLocation): LazyExoticComponent<ComponentType> {
  const key = pageKey(page, location);
  let component = lazyPages.get(key);
  if (!component) {
    component = lazy(() => loadPageAt(page, location));
    lazyPages.set(key, component);
  }
  return component;
}

/**
 * The page's component for this navigation: with /remotes.json fresh, the one of the remote's
 * current entry; otherwise one that reads /remotes.json again first (a rollout may have changed
 * the entry) and then loads the page from where it says.
 */
export function pageComponent(page: RemotePage): ComponentType {
  const location = knownLocation(remoteOf(page));
  if (location) return lazyPageAt(page, location);
  return lazy(async () => loadPageAt(page, await locateRemote(remoteOf(page))));
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

/**
 * A lazily loaded page of the protected layout: loading state, error card with Retry. `choose`
 * answers its component when the route is entered, and again on Retry.
 */
export function LoadedPage({ title, choose }: { title: string; choose: () => ComponentType }) {
  const [attempt, setAttempt] = useState(0);
  // Chosen when the route is entered and taken anew on Retry (a failed load was dropped); a
  // rollout meanwhile does not replace a page already shown.
  const [Page, setPage] = useState(choose);
  const retry = () => {
    setPage(choose);
    setAttempt((n) => n + 1);
  };
  return (
    <RemoteErrorBoundary key={attempt} title={title} onRetry={retry}>
      <Suspense
        fallback={
          <p className="shell-remote-loading" role="status">
            Loading {title}…
          </p>
        }
      >
        <Page />
      </Suspense>
    </RemoteErrorBoundary>
  );
}

/**
 * A page of the protected layout, rendered by its remote. Entering the route starts the page's
 * first calls together with its code (docs/architecture.md#first-rows).
 */
export function RemoteRoute({ route, page }: { route: RemoteRouteName; page: RemotePage }) {
  const { search } = useLocation();
  const choose = () => {
    startFirstData(route, search, useSession.getState().features);
    return pageComponent(page);
  };
  return <LoadedPage title={page.title} choose={choose} />;
}
