// The routes behind the sign-in (docs/screens.md#routes), loaded once the login form is done with.
// Default export: the lazy part of the shell.
import { Navigate, Route, Routes, type RemoteRouteName } from '@veritas/shared';
import { ProtectedLayout, RoleGate } from './protected-layout';
import { RemoteRoute } from './remote-route';
import { REMOTE_PAGES } from './remotes';

const PAGES = Object.keys(REMOTE_PAGES) as RemoteRouteName[];

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
                <RemoteRoute key={route} page={REMOTE_PAGES[route]} />
              </RoleGate>
            }
          />
        ))}
        <Route path="*" element={<Navigate to="/Dashboard" replace />} />
      </Route>
    </Routes>
  );
}
