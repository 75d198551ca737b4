import { VeritasToaster, type RouteName } from '@veritas/shared';
import { Navigate, Route, Routes } from '@veritas/shared';
import { LoginPage } from './login-page';
import { ProtectedLayout, RoleGate } from './protected-layout';
import { RemoteRoute } from './remote-route';
import { REMOTE_PAGES } from './remotes';
import './shell.css';

const PAGES = Object.keys(REMOTE_PAGES) as RouteName[];

/** The routes of the console (docs/screens.md#routes). */
export function App() {
  return (
    <>
      <VeritasToaster />
      <Routes>
        <Route path="/login" element={<LoginPage />} />
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
    </>
  );
}
