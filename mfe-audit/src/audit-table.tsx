// The Audit Log's table (docs/screens.md#audit-log): one row per entry, newest first, each with a
// Details button that shows the entry's details in a row below it.
import { ScrollRegion, type AuditEntry } from '@veritas/shared';
import { Fragment, useState } from 'react';
import { EntryDetails } from './entry-details';
import { NONE, actorText, formatTime, targetText } from './entry-text';

export const EMPTY = 'No entries match these filters.';
/** Empty so far: the server's search stopped in time before reaching the oldest entry (docs/audit.md#reading-it). */
export const EMPTY_SO_FAR =
  'No entries match these filters among the newest searched. Show older entries to search further.';
const COLUMNS = 7;

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

  return (
    <ScrollRegion label="Audit log entries" className="vx-table-wrap al-table-wrap">
      <table className="vx-table al-table" aria-busy={busy || undefined}>
        <caption className="vx-sr-only">Audit log entries</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Address</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Outcome</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {entries.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS} className="al-empty vx-muted">
                {more ? EMPTY_SO_FAR : EMPTY}
              </td>
            </tr>
          ) : (
            entries.map((entry) => {
              const expanded = open.has(entry.seq);
              return (
                <Fragment key={entry.seq}>
                  <tr data-seq={entry.seq} className="al-row">
                    <td className="al-nowrap">
                      <time dateTime={entry.time}>{formatTime(entry.time)}</time>
                    </td>
                    <td>{actorText(entry.actor)}</td>
                    <td className="al-mono">{entry.address ?? NONE}</td>
                    <td className="al-mono">{entry.action}</td>
                    <td>{targetText(entry.target)}</td>
                    <td>
                      <span className={`al-outcome al-outcome--${entry.outcome}`}>{entry.outcome}</span>
                    </td>
                    <td>
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
                    </td>
                  </tr>
                  {expanded && (
                    <tr className="al-details-row">
                      <td colSpan={COLUMNS}>
                        <EntryDetails entry={entry} id={detailsId(entry)} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })
          )}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
