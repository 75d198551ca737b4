// The pick list table's body rows: a device record's row, and the placeholder of a row not loaded yet.
import {
  expectedDevice,
  formatDateTime,
  NOT_AVAILABLE,
  recordStatus,
  resultDisplay,
  scannedDevice,
  type DeviceRecord,
} from '@veritas/shared';
import { memo } from 'react';
import { DeviceIcon } from './device-icon';
import type { DeviceRow } from './device-rows';

/** A row not loaded yet: it keeps its place in the scroll area until its page arrives. */
export function PlaceholderRow({ index, top, text }: { index: number; top: number; text: string }) {
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
export const DeviceRowView = memo(function DeviceRowView({ row, index, top, onShowDetails }: DeviceRowViewProps) {
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
        {/* Named for its row, its visible text first: every row has one (WCAG 2.5.3, label in name). */}
        <button
          type="button"
          className="vx-btn dl-details-btn"
          aria-label={`See Details of ${record.tracking_id.tracking_id}`}
          onClick={() => onShowDetails(record)}
        >
          See Details
        </button>
      </div>
    </div>
  );
});
