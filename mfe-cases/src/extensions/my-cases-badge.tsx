// Slot top-bar.item: "My cases" with the count of the signed-in user's open cases, linking to the
// queue filtered to them. Nothing at 0, nothing while loading, nothing on error: the top bar never
// waits for it or shows its failure.
import { Link, type TopBarItemProps } from '@veritas/shared';
import { useQueryNow } from '@veritas/shared/query';
import { caseTotalsQuery } from '../api/cases';
import { useLiveRefresh } from '../case/use-live-refresh';
import '../case/extensions.css';

export const MY_CASES_HREF = '/Cases?assignee=me';

/** The link's accessible name, e.g. "My cases: 3 open, 1 overdue". */
export function myCasesLabel(open: number, overdue: number): string {
  return `My cases: ${open} open${overdue > 0 ? `, ${overdue} overdue` : ''}`;
}

export default function MyCasesBadge({ user }: TopBarItemProps) {
  const query = caseTotalsQuery({ mine: true });
  const { data } = useQueryNow(query);
  useLiveRefresh(query.queryKey);
  if (!user || !data || !(data.open > 0)) return null;
  return (
    <Link to={MY_CASES_HREF} className="cx-my-cases" aria-label={myCasesLabel(data.open, data.overdue)}>
      {/* The space keeps the visible text "My cases 3" within the accessible name (WCAG 2.5.3). */}
      My cases{' '}
      <span className={`cx-badge${data.overdue > 0 ? ' cx-badge--overdue' : ''}`} aria-hidden="true">
        {data.open}
      </span>
    </Link>
  );
}
