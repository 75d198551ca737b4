// The routes behind the sign-in (docs/screens.md#routes), loaded once the login form is done with.
// Default export: the lazy part of the shell.
import { Navigate, Route, Routes, SHELL_PAGES, type RemoteRouteName } from '@veritas/shared';
import { PageCode } from './page-code';
import { ProtectedLayout, RoleGate } from './protected-layout';
import { LoadedPage, RemoteRoute, preloadPage } from './remote-route';
import { REMOTE_PAGES } from './remotes';

const PAGES = Object.keys(REMOTE_PAGES) as RemoteRouteName[];

// The shell's own Deployments page: a chunk of its own, loaded when first opened (the login page's
// first load stays small); a failed load is dropped so Retry loads it again.
let deploymentsPage: PageCode | null = null;
function deployments(): PageCode {
  deploymentsPage ??= new PageCode(
    import('./deployments/deployments-page').catch((error: unknown) => {
      deploymentsPage = null;
      throw error;
    }),
  );
  return deploymentsPage;
}

/**
 * On a page load of a remote's page (bootstrap.tsx), its code starts loading while the sign-in is
 * checked (docs/architecture.md#first-rows). Routes match without regard to case, as the router's do.
 */
export function preloadPageAt(pathname: string): void {
  const path = pathname.replace(/\/+$/, '').toLowerCase();
  const route = PAGES.find((name) => `/${name.toLowerCase()}` === path);
  if (route) preloadPage(REMOTE_PAGES[route]);
}

export default function SignedInRoutes() {
  return (
    <Routes>
      <Route path="/" element={<ProtectedLayout />}>
        <Route index element={<Navigate to="/Dashboard" replace />} />
        {PAGES.map((route) => (
          <Route
            key={route}
            path={route}
            element={
              <RoleGate route={route}>
                <RemoteRoute key={route} route={route} page={REMOTE_PAGES[route]} />
              </RoleGate>
            }
          />
        ))}
        <Route
          path="Deployments"
          element={
            <RoleGate route="Deployments">
              <LoadedPage title={SHELL_PAGES.Deployments.title} choose={deployments} />
            </RoleGate>
          }
        />
        <Route path="*" element={<Navigate to="/Dashboard" replace />} />
      </Route>
    </Routes>
  );
}
