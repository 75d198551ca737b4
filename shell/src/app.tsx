import { VeritasToaster } from '@veritas/shared';
import { Route, Routes } from '@veritas/shared';
import { lazy, Suspense } from 'react';
import { LoginPage } from './login-page';
import { CheckingSignIn } from './checking-sign-in';
import './shell.css';

// Everything past the login form (layout, menus, remote loading, the query client) loads after it,
// so the login page's first load stays small (docs/architecture.md#the-shells-first-load).
const SignedInRoutes = lazy(() => import('./signed-in-routes'));

/** The routes of the console (docs/screens.md#routes). */
export function App() {
  return (
    <>
      <VeritasToaster />
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route
          path="*"
          element={
            <Suspense fallback={<CheckingSignIn />}>
              <SignedInRoutes />
            </Suspense>
          }
        />
      </Routes>
    </>
  );
}
