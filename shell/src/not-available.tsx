import { Link } from '@veritas/shared';
import { usePageTitle } from './page-arrival';

/** A page no deployed remote declares any more (docs/screens.md#protected-layout). */
export function NotAvailable() {
  usePageTitle('This page is not available');
  return (
    <section className="vx-card shell-remote-error">
      <h1 className="vx-card-title">This page is not available</h1>
      <p className="vx-muted">The part of the console that provided it is not deployed any more.</p>
      <Link to="/Dashboard" className="vx-btn vx-btn-primary shell-link-button">
        Go to the Dashboard
      </Link>
    </section>
  );
}
