// The pick list table: a CSS grid with table semantics whose body is virtualized, so 100k
// records cost only the rows in view (plus overscan) in the DOM. Served a page at a time, it also
// holds placeholder rows for those not loaded yet, so its scrollbar reflects the whole list.
import type { DeviceRecord } from '@veritas/shared';
import { DeviceRowView, PlaceholderRow } from './device-row-view';
import type { DeviceRow } from './device-rows';
import { HEADER_HEIGHT, MAX_SCROLL_ROWS } from './row-geometry';
import { useTableScroll } from './use-table-scroll';

export const COLUMNS = [
  'Timestamp',
  'Tracking ID',
  'Hub Code',
  'Operator',
  'Expected Device',
  'Scanned Device',
  'Status',
  'Result',
  'Actions',
] as const;

interface DeviceTableProps {
  rows: readonly DeviceRow[];
  onShowDetails: (record: DeviceRecord) => void;
  /** Rows of the scroll area (default: rows.length); those past `rows` are placeholders for rows not loaded yet. */
  rowCount?: number;
  /** What a placeholder row reads. */
  placeholder?: string;
  /** Told the index of the last row rendered (in view or overscan) each time it changes; -1 without rows. */
  onRangeEnd?: (index: number) => void;
  /** Told the index of the row at the top of the view (under the header) each time it changes; -1 without rows. */
  onRangeStart?: (index: number) => void;
  /** The rows shown are about to be replaced. */
  busy?: boolean;
  /** Names the list shown: a new one starts at the top (default: the rows themselves; pages appended keep the scroll). */
  scrollKey?: unknown;
}

export function DeviceTable({
  rows,
  onShowDetails,
  rowCount = rows.length,
  placeholder = '',
  onRangeEnd,
  onRangeStart,
  busy = false,
  scrollKey = rows,
}: DeviceTableProps) {
  const count = Math.max(rows.length, Math.min(rowCount, MAX_SCROLL_ROWS));
  const { scrollRef, virtualizer, items } = useTableScroll({ rows, count, scrollKey, onRangeEnd, onRangeStart });

  return (
    <div ref={scrollRef} className="dl-scroll" data-testid="device-table-scroll">
      <div
        className="dl-table"
        role="table"
        aria-label="Devices"
        aria-rowcount={count + 1}
        aria-busy={busy || undefined}
      >
        <div className="dl-head" role="rowgroup">
          <div className="dl-row dl-row--head vx-caption" role="row" aria-rowindex={1}>
            {COLUMNS.map((name) => (
              <div key={name} className="dl-cell" role="columnheader">
                {name}
              </div>
            ))}
          </div>
        </div>
        <div className="dl-body" role="rowgroup" style={{ height: count ? virtualizer.getTotalSize() : undefined }}>
          {count === 0 ? (
            <div className="dl-empty" role="row">
              <div role="cell">No expectations available</div>
            </div>
          ) : (
            items.map((item) => {
              const row = rows[item.index];
              const top = item.start - HEADER_HEIGHT;
              return row ? (
                <DeviceRowView
                  key={row.record.id}
                  row={row}
                  index={item.index}
                  top={top}
                  onShowDetails={onShowDetails}
                />
              ) : (
                <PlaceholderRow key={`placeholder-${item.index}`} index={item.index} top={top} text={placeholder} />
              );
            })
          )}
        </div>
      </div>
    </div>
  );
}
