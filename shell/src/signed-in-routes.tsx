// The routes behind the sign-in (docs/screens.md#routes), loaded once the login form is done with.
// Default export: the lazy part of the shell.
import { Navigate, Route, Routes, SHELL_PAGES, type RemoteRouteName } from '@veritas/shared';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { ProtectedLayout, RoleGate } from './protected-layout';
import { LoadedPage, RemoteRoute } from './remote-route';
import { REMOTE_PAGES } from './remotes';

const PAGES = Object.keys(REMOTE_PAGES) as RemoteRouteName[];

// The shell's own Deployments page: a chunk of its own, loaded when first opened (the login page's
// first load stays small); a failed load is dropped so Retry loads it again.
let deploymentsPage: LazyExoticComponent<ComponentType> | null = null;
function deployments(): ComponentType {
  deploymentsPage ??= lazy(() =>
    import('./deployments/deployments-page').catch((error: unknown) => {
      deploymentsPage = null;
      throw error;
    }),
  );
  return deploymentsPage;
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
