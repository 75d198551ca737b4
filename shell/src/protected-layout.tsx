import { setLoginRedirect, startLiveEvents, useLocation, useSession } from '@veritas/shared';
import { QueryProvider, queryClient } from '@veritas/shared/query';
import { useEffect, useRef } from 'react';
import { useNavigate } from '@veritas/shared';
import { CheckingSignIn } from './checking-sign-in';
import { freshComposition, useViewerComposition } from './composition';
import { Layout } from './layout';
import { sessionCheck } from './session-check';

/** No composition could be read for the signed-in user: nothing to route to or offer in a menu. */
function CompositionFailed({ onRetry }: { onRetry(): void }) {
  return (
    <section className="vx-card shell-remote-error" role="alert">
      <h1 className="vx-card-title">The console could not be loaded</h1>
      <p className="vx-muted">Its pages and menus could not be fetched. Check your connection, then try again.</p>
      <button type="button" className="vx-btn vx-btn-primary" onClick={onRetry}>
        Retry
      </button>
    </section>
  );
}

/**
 * The layout for signed-in users: checks the login on mount (docs/screens.md#protected-layout),
 * sends everyone else to /login, and decides no route before the composition is the user's own.
 */
export function ProtectedLayout() {
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  const { composition, failed, retry } = useViewerComposition();
  const { pathname } = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const toLogin = () => navigate('/login', { replace: true });
    // An expired session found by any call (shell or remote) leaves through the router, without a reload.
    setLoginRedirect(toLogin);
    let active = true;
    void sessionCheck().then((signedIn) => {
      if (active && !signedIn) toLogin();
    });
    return () => {
      active = false;
    };
    // On mount only: under BrowserRouter `navigate` changes with every location, and the
    // check must not run again on each navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // docs/architecture.md#live-events: the tab's event stream, open while the session is signed in
  // with 'live-events' (the store decides), for as long as the layout is shown.
  useEffect(() => startLiveEvents(), []);

  // What one user loaded is not shown to the next one signing in on this tab: cleared when the
  // session ends, not while a page load checks it (its page's first calls are on their way then).
  const wasAuthenticated = useRef(isAuthenticated);
  useEffect(() => {
    if (wasAuthenticated.current && !isAuthenticated) queryClient.clear();
    wasAuthenticated.current = isAuthenticated;
  }, [isAuthenticated]);

  // Each navigation shows what is live now: a composition a rollout made stale (or older than
  // 60 s) is read again, and routes and menus follow. A failure is left to the pages' error cards.
  useEffect(() => {
    if (isAuthenticated) freshComposition().catch(() => {});
  }, [isAuthenticated, pathname]);

  // Until the first check answers, a user signed in a moment ago keeps the layout; others wait.
  if (!isAuthenticated) return <CheckingSignIn />;
  if (!composition) return failed ? <CompositionFailed onRetry={retry} /> : <CheckingSignIn />;
  // docs/architecture.md#loading-data: the one query client, for every remote page below.
  return (
    <QueryProvider>
      <Layout />
    </QueryProvider>
  );
}
