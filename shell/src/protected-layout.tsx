import { canAccessRoute, setLoginRedirect, startLiveEvents, useSession, type RouteName } from '@veritas/shared';
import { QueryProvider, queryClient } from '@veritas/shared/query';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useNavigate } from '@veritas/shared';
import { CheckingSignIn } from './checking-sign-in';
import { Layout } from './layout';
import { sessionCheck } from './session-check';

/** The layout for signed-in users: checks the login on mount (docs/screens.md#protected-layout) and sends everyone else to /login. */
export function ProtectedLayout() {
  const isAuthenticated = useSession((s) => s.isAuthenticated);
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

  // What one user loaded is not shown to the next one signing in on this tab.
  useEffect(() => {
    if (!isAuthenticated) queryClient.clear();
  }, [isAuthenticated]);

  // Until the first check answers, a user signed in a moment ago keeps the layout; others wait.
  if (!isAuthenticated) return <CheckingSignIn />;
  // docs/architecture.md#loading-data: the one query client, for every remote page below.
  return (
    <QueryProvider>
      <Layout />
    </QueryProvider>
  );
}

/** A page the role may not see is not reachable by URL either: it leads to the Dashboard. */
export function RoleGate({ route, children }: { route: RouteName; children: ReactNode }) {
  const role = useSession((s) => s.role);
  return canAccessRoute(role, route) ? children : <Navigate to="/Dashboard" replace />;
}
