// Slot dashboard.tile: the open and the overdue cases of the Dashboard's hub (or of all hubs), as
// tiles like the Dashboard's own, each linking to the queue with that filter. Nothing while loading
// or on error: the Dashboard never waits for them.
import { ALL_HUBS, Link, type DashboardTileProps } from '@veritas/shared';
import { useQueryNow } from '@veritas/shared/query';
import { caseTotalsQuery } from '../api/cases';
import { useLiveRefresh } from '../case/use-live-refresh';
import '../case/extensions.css';

/** The queue's address for the hub (`all`: every queue), optionally only its overdue cases. */
export function casesHref(hub: string, overdue = false): string {
  const params = new URLSearchParams();
  if (hub && hub.toLowerCase() !== ALL_HUBS) params.set('queue', hub);
  if (overdue) params.set('overdue', '1');
  const search = params.toString();
  return search ? `/Cases?${search}` : '/Cases';
}

function Tile({ label, value, to, testId }: { label: string; value: number; to: string; testId: string }) {
  return (
    <Link to={to} className="vx-card db-tile cx-tile">
      <span className="vx-caption">{label}</span>
      <span className="db-tile__value" data-testid={testId}>
        {value}
      </span>
    </Link>
  );
}

export default function CaseTiles({ hub }: DashboardTileProps) {
  const query = caseTotalsQuery({ hub });
  const { data } = useQueryNow(query);
  useLiveRefresh(query.queryKey);
  if (!data) return null;
  return (
    <>
      <Tile label="Open cases" value={data.open} to={casesHref(hub)} testId="tile-open-cases" />
      <Tile label="Overdue cases" value={data.overdue} to={casesHref(hub, true)} testId="tile-overdue-cases" />
    </>
  );
}
