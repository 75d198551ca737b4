// The Audit Log's table (docs/screens.md#audit-log): one row per entry, newest first, each with a
// Details button that shows the entry's details in a row below it.
import type { AuditEntry } from '@veritas/shared';
import { DataTable, type Column } from '@veritas/shared/table';
import { useState } from 'react';
import { EntryDetails } from './entry-details';
import { NONE, actorText, formatTime, targetText } from './entry-text';

export const EMPTY = 'No entries match these filters.';
/** Empty so far: the server's search stopped in time before reaching the oldest entry (docs/audit.md#reading-it). */
export const EMPTY_SO_FAR =
  'No entries match these filters among the newest searched. Show older entries to search further.';

const detailsId = (entry: AuditEntry) => `al-entry-${entry.seq}`;

export function AuditTable({
  entries,
  busy,
  more,
}: {
  entries: readonly AuditEntry[];
  busy: boolean;
  /** Older entries may still match. */
  more: boolean;
}) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (seq: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(seq)) next.add(seq);
      return next;
    });

  const columns: Column<AuditEntry>[] = [
    {
      header: 'Time',
      className: 'al-nowrap',
      cell: (entry) => <time dateTime={entry.time}>{formatTime(entry.time)}</time>,
    },
    { header: 'Actor', cell: (entry) => actorText(entry.actor) },
    { header: 'Address', className: 'al-mono', cell: (entry) => entry.address ?? NONE },
    { header: 'Action', className: 'al-mono', cell: (entry) => entry.action },
    { header: 'Target', cell: (entry) => targetText(entry.target) },
    {
      header: 'Outcome',
      cell: (entry) => <span className={`al-outcome al-outcome--${entry.outcome}`}>{entry.outcome}</span>,
    },
    {
      header: 'Details',
      cell: (entry) => {
        const expanded = open.has(entry.seq);
        return (
          <button
            type="button"
            className="vx-btn al-toggle"
            aria-expanded={expanded}
            aria-controls={expanded ? detailsId(entry) : undefined}
            onClick={() => toggle(entry.seq)}
          >
            <span className="al-toggle__chevron" aria-hidden="true" />
            Details<span className="vx-sr-only"> of entry {entry.seq}</span>
          </button>
        );
      },
    },
  ];

  return (
    <DataTable
      caption="Audit log entries"
      captionClassName="vx-sr-only"
      className="vx-table al-table"
      wrapClassName="vx-table-wrap al-table-wrap"
      noteClassName="al-empty vx-muted"
      columns={columns}
      rows={entries}
      rowKey={(entry) => entry.seq}
      rowAttributes={(entry) => ({ 'data-seq': entry.seq, className: 'al-row' })}
      after={(entry) =>
        open.has(entry.seq) && (
          <tr className="al-details-row">
            <td colSpan={columns.length}>
              <EntryDetails entry={entry} id={detailsId(entry)} />
            </td>
          </tr>
        )
      }
      busy={busy}
      empty={more ? EMPTY_SO_FAR : EMPTY}
    />
  );
}
