import { Link, Navigate, useComposition, type ComposedPage } from '@veritas/shared';
import { usePageTitle } from './page-arrival';

/**
 * The console's home page: the one a served version declares `home` (the dashboard remote's
 * Dashboard), where the shell leads `/` and any path that is no page for this viewer. The shell
 * names no remote's page itself (docs/architecture.md#composition).
 */
export function useHomePage(): ComposedPage | null {
  return useComposition((s) => s.composition?.pages.find((page) => page.path === s.composition?.home) ?? null);
}

/** Leads to the home page, replacing the history entry; while none is served, says so. */
export function GoHome() {
  const home = useHomePage();
  return home ? <Navigate to={`/${home.path}`} replace /> : <NotAvailable />;
}

/** A page no deployed remote declares any more (docs/screens.md#protected-layout). */
export function NotAvailable() {
  usePageTitle('This page is not available');
  const home = useHomePage();
  return (
    <section className="vx-card shell-remote-error">
      <h1 className="vx-card-title">This page is not available</h1>
      <p className="vx-muted">The part of the console that provided it is not deployed any more.</p>
      {home && (
        <Link to={`/${home.path}`} className="vx-btn vx-btn-primary shell-link-button">
          Go to the {home.title}
        </Link>
      )}
    </section>
  );
}
