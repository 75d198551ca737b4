// The pick list table: a CSS grid with table semantics whose body is virtualized, so 100k
// records cost only the rows in view (plus overscan) in the DOM. Served a page at a time, it also
// holds placeholder rows for those not loaded yet, so its scrollbar reflects the whole list.
import {
  expectedDevice,
  formatDateTime,
  NOT_AVAILABLE,
  recordStatus,
  resultDisplay,
  scannedDevice,
  type DeviceRecord,
} from '@veritas/shared';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import { DeviceIcon } from './device-icon';
import type { DeviceRow } from './device-rows';

/** Fixed heights (px) matching list-devices.css: rows are never measured, so scrolling stays cheap. */
export const ROW_HEIGHT = 56;
const HEADER_HEIGHT = 40;
const OVERSCAN = 10;
/**
 * Browsers cap an element's height (about 17.9 million px in Firefox): the scroll area holds at
 * most the rows that fit in 15 million px; beyond that, a longer list is reached by its filters.
 */
export const MAX_SCROLL_ROWS = Math.floor(15_000_000 / ROW_HEIGHT);

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
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // The sticky header sits above the rows inside the same scroll container.
    scrollMargin: HEADER_HEIGHT,
    overscan: OVERSCAN,
  });

  // A new filter result starts at the top rather than somewhere past its end.
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [scrollKey]);

  // docs/screens.md#live-updates: rows changed, added or removed above the row at the top of the
  // view must not move it. Before the browser paints the new rows, the scroll moves by as many
  // rows as that one moved. At the very top it stays at the top, where new rows show.
  const before = useRef({ rows, scrollKey });
  useLayoutEffect(() => {
    const previous = before.current;
    before.current = { rows, scrollKey };
    const element = scrollRef.current;
    if (!element || previous.scrollKey !== scrollKey || previous.rows === rows) return;
    const shift = anchorShift(previous.rows, rows, element.scrollTop);
    if (shift) element.scrollTop += shift * ROW_HEIGHT;
  }, [rows, scrollKey]);

  const items = virtualizer.getVirtualItems();
  const end = items.length ? items[items.length - 1]!.index : -1;
  useEffect(() => {
    onRangeEnd?.(end);
  }, [end, onRangeEnd]);
  const start = count ? Math.min(count - 1, topRow(virtualizer.scrollOffset ?? 0)) : -1;
  useEffect(() => {
    onRangeStart?.(start);
  }, [start, onRangeStart]);

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

/** The index of the row at the top of the view, under the sticky header, at a scroll offset. */
const topRow = (scrollTop: number) => Math.max(0, Math.floor(scrollTop / ROW_HEIGHT));

/**
 * How many rows the row at the top of the view moved between two lists of rows (negative: up).
 * That row is the first one from the top of the view that is still there with the same time: a
 * row whose own time changed has moved away from under the user's eyes, and the rows after it stay.
 */
function anchorShift(before: readonly DeviceRow[], after: readonly DeviceRow[], scrollTop: number): number {
  if (scrollTop <= 0) return 0;
  const top = topRow(scrollTop);
  const same = (a: DeviceRow | undefined, b: DeviceRow | undefined) =>
    !!a && !!b && a.record.id === b.record.id && a.sortKey === b.sortKey;
  if (same(before[top], after[top])) return 0;
  const indexOf = new Map(after.map((row, index) => [row.record.id, index]));
  for (let i = top; i < before.length; i++) {
    const index = indexOf.get(before[i]!.record.id);
    if (index !== undefined && same(before[i], after[index])) return index - i;
  }
  return 0;
}

/** A row not loaded yet: it keeps its place in the scroll area until its page arrives. */
function PlaceholderRow({ index, top, text }: { index: number; top: number; text: string }) {
  return (
    <div
      className="dl-row dl-row--placeholder"
      role="row"
      aria-rowindex={index + 2}
      data-testid="device-row-placeholder"
      style={{ transform: `translateY(${top}px)` }}
    >
      <div className="dl-cell dl-placeholder vx-muted" role="cell">
        {text}
      </div>
    </div>
  );
}

interface DeviceRowViewProps {
  row: DeviceRow;
  index: number;
  top: number;
  onShowDetails: (record: DeviceRecord) => void;
}

// Memoized: scrolling re-renders the table, but a row already in view only moves.
const DeviceRowView = memo(function DeviceRowView({ row, index, top, onShowDetails }: DeviceRowViewProps) {
  const { record, timestamp } = row;
  const expected = expectedDevice(record);
  const scanned = scannedDevice(record);
  const result = resultDisplay(record);
  return (
    <div
      className="dl-row"
      role="row"
      aria-rowindex={index + 2}
      data-testid="device-row"
      data-tracking-id={record.tracking_id.tracking_id}
      style={{ transform: `translateY(${top}px)` }}
    >
      <div
        className={`dl-cell dl-ts dl-ts--${timestamp.kind}`}
        role="cell"
        data-column="timestamp"
        data-kind={timestamp.kind}
      >
        {formatDateTime(timestamp.time)}
      </div>
      <div className="dl-cell dl-mono" role="cell" data-column="tracking-id" title={record.tracking_id.tracking_id}>
        {record.tracking_id.tracking_id}
      </div>
      <div className="dl-cell" role="cell" data-column="hub">
        {record.tracking_id.hub_code || NOT_AVAILABLE}
      </div>
      <div className="dl-cell" role="cell" data-column="operator">
        {record.submitted_by?.username ?? NOT_AVAILABLE}
      </div>
      <div className="dl-cell dl-device" role="cell" data-column="expected">
        <DeviceIcon type={expected.type} />
        <span className="dl-two-lines">
          <span title={expected.name}>{expected.name}</span>
          <span className="vx-muted" title={expected.brand}>
            {expected.brand}
          </span>
        </span>
      </div>
      <div className="dl-cell" role="cell" data-column="scanned">
        {scanned ? (
          <span className="dl-two-lines">
            <span title={scanned.name}>{scanned.name}</span>
            <span className="vx-muted" title={scanned.manufacturer}>
              {scanned.manufacturer}
            </span>
          </span>
        ) : (
          NOT_AVAILABLE
        )}
      </div>
      <div className="dl-cell" role="cell" data-column="status">
        {recordStatus(record)}
      </div>
      <div className="dl-cell" role="cell" data-column="result">
        {result?.kind === 'pass' && (
          <span className="dl-result dl-result--pass" role="img" aria-label="Passed" title="Passed">
            ✓
          </span>
        )}
        {result?.kind === 'error' && (
          <span className="dl-result dl-result--error">
            <span role="img" aria-label="Failed">
              ✗
            </span>{' '}
            {result.code}
          </span>
        )}
      </div>
      <div className="dl-cell" role="cell" data-column="actions">
        <button type="button" className="vx-btn dl-details-btn" onClick={() => onShowDetails(record)}>
          See Details
        </button>
      </div>
    </div>
  );
});
