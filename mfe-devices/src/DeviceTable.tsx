// The pick list table: a CSS grid with table semantics whose body is virtualized, so 100k
// records cost only the rows in view (plus overscan) in the DOM.
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
import { memo, useEffect, useRef } from 'react';
import { DeviceIcon } from './DeviceIcon';
import type { DeviceRow } from './deviceRows';

/** Fixed heights (px) matching ListDevices.css: rows are never measured, so scrolling stays cheap. */
export const ROW_HEIGHT = 56;
const HEADER_HEIGHT = 40;
const OVERSCAN = 10;

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
}

export function DeviceTable({ rows, onShowDetails }: DeviceTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // The sticky header sits above the rows inside the same scroll container.
    scrollMargin: HEADER_HEIGHT,
    overscan: OVERSCAN,
  });

  // A new filter result starts at the top rather than somewhere past its end.
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [rows]);

  return (
    <div ref={scrollRef} className="dl-scroll" data-testid="device-table-scroll">
      <div className="dl-table" role="table" aria-label="Devices" aria-rowcount={rows.length + 1}>
        <div className="dl-head" role="rowgroup">
          <div className="dl-row dl-row--head vx-caption" role="row" aria-rowindex={1}>
            {COLUMNS.map((name) => (
              <div key={name} className="dl-cell" role="columnheader">
                {name}
              </div>
            ))}
          </div>
        </div>
        <div className="dl-body" role="rowgroup" style={{ height: rows.length ? virtualizer.getTotalSize() : undefined }}>
          {rows.length === 0 ? (
            <div className="dl-empty" role="row">
              <div role="cell">No expectations available</div>
            </div>
          ) : (
            virtualizer
              .getVirtualItems()
              .map((item) => (
                <DeviceRowView
                  key={rows[item.index]!.record.id}
                  row={rows[item.index]!}
                  index={item.index}
                  top={item.start - HEADER_HEIGHT}
                  onShowDetails={onShowDetails}
                />
              ))
          )}
        </div>
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
      <div className={`dl-cell dl-ts dl-ts--${timestamp.kind}`} role="cell" data-column="timestamp" data-kind={timestamp.kind}>
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
