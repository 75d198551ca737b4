// The Cases queue's table: one row per case in the server's order (soonest due first), each
// linking to its case; with bulk actions, a checkbox per row and one for every row shown.
import { Link, formatDateTime, type CaseSummary } from '@veritas/shared';
import { isOverdue } from '@veritas/shared/case-vocabulary';
import { DataTable, type Column } from '@veritas/shared/table';
import { stateText } from '../case/case-text';
import { reasonText } from '../case/case-text';

export const EMPTY = 'No cases match these filters.';
export const UNASSIGNED = 'Unassigned';
export const OVERDUE = 'Overdue';

export interface Selection {
  selected: ReadonlySet<number>;
  toggle(id: number): void;
  /** Selects every row shown, or none when all are. */
  toggleAll(): void;
}

function SelectAll({ rows, selection }: { rows: readonly CaseSummary[]; selection: Selection }) {
  const count = rows.filter((row) => selection.selected.has(row.id)).length;
  const all = rows.length > 0 && count === rows.length;
  return (
    <input
      type="checkbox"
      className="cq-checkbox"
      aria-label="Select every case shown"
      checked={all}
      disabled={rows.length === 0}
      ref={(input) => {
        if (input) input.indeterminate = count > 0 && !all;
      }}
      onChange={selection.toggleAll}
    />
  );
}

export function CaseTable({
  cases,
  now,
  busy,
  selection,
}: {
  cases: readonly CaseSummary[];
  /** The time overdue is judged at (ms). */
  now: number;
  busy: boolean;
  /** Null: no bulk actions for this viewer, no checkboxes. */
  selection: Selection | null;
}) {
  const columns: Column<CaseSummary>[] = [
    ...(selection
      ? [
          {
            header: <SelectAll rows={cases} selection={selection} />,
            className: 'cq-select-cell',
            cell: (row: CaseSummary) => (
              <input
                type="checkbox"
                className="cq-checkbox"
                aria-label={`Select case #${row.id}`}
                checked={selection.selected.has(row.id)}
                onChange={() => selection.toggle(row.id)}
              />
            ),
          },
        ]
      : []),
    {
      header: 'Case',
      rowHeader: true,
      className: 'cq-nowrap',
      cell: (row) => <Link to={`/Case?id=${row.id}`}>#{row.id}</Link>,
    },
    { header: 'Tracking ID', className: 'cq-mono', cell: (row) => row.tracking_id },
    { header: 'Reason', cell: (row) => reasonText(row.reason) },
    { header: 'State', cell: (row) => stateText(row) },
    { header: 'Queue', className: 'cq-mono', cell: (row) => row.queue },
    {
      header: 'Assignee',
      cell: (row) => row.assignee ?? <span className="vx-muted">{UNASSIGNED}</span>,
    },
    {
      header: 'Due',
      className: 'cq-nowrap',
      cell: (row) => (
        <>
          <time dateTime={row.due_at}>{formatDateTime(row.due_at)}</time>
          {isOverdue(row, now) && <span className="cq-overdue">{OVERDUE}</span>}
        </>
      ),
    },
  ];

  return (
    <DataTable
      caption="Cases by due time"
      captionClassName="vx-sr-only"
      className="vx-table cq-table"
      wrapClassName="vx-table-wrap cq-table-wrap"
      noteClassName="cq-empty vx-muted"
      columns={columns}
      rows={cases}
      rowKey={(row) => row.id}
      rowAttributes={(row) => ({
        'data-id': row.id,
        className: selection?.selected.has(row.id) ? 'cq-row cq-row--selected' : 'cq-row',
      })}
      busy={busy}
      empty={EMPTY}
    />
  );
}
