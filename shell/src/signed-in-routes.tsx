// The routes behind the sign-in (docs/screens.md#routes), loaded once the login form is done with:
// the pages of the composition, each rendered by its remote, and the shell's own Deployments.
// Default export: the lazy part of the shell.
import {
  canOpenDeployments,
  Route,
  Routes,
  useComposition,
  useLocation,
  useSession,
  type ComposedPage,
} from '@veritas/shared';
import { useEffect, useState } from 'react';
import { freshComposition, isCompositionFresh } from './composition';
import { GoHome, NotAvailable } from './not-available';
import { PageCode } from './page-code';
import { ProtectedLayout } from './protected-layout';
import { composedForSignedIn, composedPageAt, routePath } from './page-codes';
import { LoadedPage, RemoteRoute, startFirstCallsAtLoad } from './remote-route';
// The layout's styles (top bar, menus, footer, the not-available card): they load with these
// routes, not with the login page (docs/architecture.md#the-shells-first-load).
import './shell.css';

const NO_PAGES: ComposedPage[] = [];
const NOTHING_UNAVAILABLE: string[] = [];

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
 * On a page load of a remote's page by a user the document was composed for (bootstrap.tsx), the
 * page's first calls start as soon as the query client is in (docs/architecture.md#first-rows).
 */
export function startFirstCallsAt(pathname: string, search: string): void {
  const page = composedPageAt(pathname);
  if (!page || !composedForSignedIn()) return;
  startFirstCallsAtLoad(page, search, useComposition.getState().composition!.features);
}

function DeploymentsRoute() {
  const role = useSession((s) => s.role);
  if (!canOpenDeployments(role)) return <GoHome />;
  return <LoadedPage title="Deployments" choose={deployments} />;
}

/**
 * A path that is no page of the composition: one no deployed remote declares any more says so;
 * any other leads to the home page (a page the role may not open is not in its composition).
 * Decided on a fresh composition, as a rollout since may have made it a page or taken it away.
 */
function OtherPath() {
  const { pathname } = useLocation();
  const unavailable = useComposition((s) => s.composition?.unavailable) ?? NOTHING_UNAVAILABLE;
  const [settled, setSettled] = useState(isCompositionFresh);
  useEffect(() => {
    if (settled) return;
    let current = true;
    // A failed read decides on the composition at hand.
    const decide = () => current && setSettled(true);
    freshComposition().then(decide, decide);
    return () => {
      current = false;
    };
  }, [settled]);
  if (!settled) return null;
  const path = routePath(pathname);
  if (unavailable.some((gone) => routePath(gone) === path)) return <NotAvailable />;
  return <GoHome />;
}

export default function SignedInRoutes() {
  const pages = useComposition((s) => s.composition?.pages) ?? NO_PAGES;
  return (
    <Routes>
      <Route path="/" element={<ProtectedLayout />}>
        <Route index element={<GoHome />} />
        {pages.map((page) => (
          <Route key={page.path} path={page.path} element={<RemoteRoute key={page.path} page={page} />} />
        ))}
        <Route path="Deployments" element={<DeploymentsRoute />} />
        <Route path="*" element={<OtherPath />} />
      </Route>
    </Routes>
  );
}
