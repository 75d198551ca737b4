import { VeritasToaster } from '@veritas/shared';
import { Route, Routes } from '@veritas/shared';
import { lazy, Suspense } from 'react';
import { LoginPage } from './login-page';
import { CheckingSignIn } from './checking-sign-in';
import { answerAtOnce } from './page-code';
import { startSessionCheck } from './session-check';

type SignedInModule = typeof import('./signed-in-routes');

let signedInModule: SignedInModule | undefined;

/** Loads the signed-in routes; bootstrap.tsx awaits it before the first render of any other page than /login. */
export function preloadSignedInRoutes(): Promise<SignedInModule> {
  return import('./signed-in-routes').then((module) => (signedInModule = module));
}

/**
 * A page load of a signed-in page (a reload, a link; bootstrap.tsx): the sign-in is checked while
 * the routes load, which render with them at hand. A remote's page has its code on the way
 * meanwhile, started first: its chain of files (manifest, entry, chunks) is the longest of the page
 * load. Its first calls follow once the routes' chunk brings the query client
 * (docs/architecture.md#first-rows).
 */
export async function startSignedInPageLoad(pathname: string, search: string): Promise<void> {
  const routes = preloadSignedInRoutes();
  const { composedForSignedIn, preloadPageAt } = await import('./page-codes');
  startSessionCheck(composedForSignedIn());
  preloadPageAt(pathname);
  (await routes).startFirstCallsAt(pathname, search);
}

// Everything past the login form (layout, menus, remote loading, the query client) loads after it,
// so the login page's first load stays small (docs/architecture.md#the-shells-first-load). React
// reveals a lazy tree no sooner than 300 ms after its fallback showed: routes already loaded are
// handed over as a thenable that answers at once, so no fallback shows and nothing waits.
const SignedInRoutes = lazy(() => (signedInModule ? answerAtOnce(signedInModule) : preloadSignedInRoutes()));

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
