// The pick list's rows: derived once per fetch (timestamp, sort key, lower-cased search keys) so
// that sorting happens once and each keystroke only runs a cheap in-memory filter.
import {
  ALL_HUBS,
  distinctHubCodes,
  hubCodeOf,
  recordTimestamp,
  timeValue,
  type DeviceRecord,
  type RecordTimestamp,
} from '@veritas/shared';

export interface DeviceRow {
  record: DeviceRecord;
  timestamp: RecordTimestamp;
  sortKey: number;
  trackingIdLower: string;
  hubLower: string;
}

/** One record as the table shows it, with the keys the in-page sort and filters use. */
export function toDeviceRow(record: DeviceRecord): DeviceRow {
  const timestamp = recordTimestamp(record);
  return {
    record,
    timestamp,
    sortKey: timeValue(timestamp.time),
    trackingIdLower: (record.tracking_id.tracking_id ?? '').toLowerCase(),
    hubLower: (hubCodeOf(record) ?? '').toLowerCase(),
  };
}

/** Rows sorted newest first by the timestamp rule; records without a usable time go last. */
export function toDeviceRows(records: readonly DeviceRecord[]): DeviceRow[] {
  const rows = records.map(toDeviceRow);
  // Comparisons, not subtraction: two missing times (-Infinity) would give NaN.
  return rows.sort((a, b) => (a.sortKey === b.sortKey ? b.record.id - a.record.id : a.sortKey < b.sortKey ? 1 : -1));
}

export function hubOptions(records: readonly DeviceRecord[]): { value: string; label: string }[] {
  return [{ value: ALL_HUBS, label: 'All Hubs' }, ...distinctHubCodes(records).map((code) => ({ value: code, label: code }))];
}

/** Rows whose tracking ID contains `query` (case-insensitive) and whose hub is `hub` (null or ALL_HUBS: any). */
export function filterRows(rows: readonly DeviceRow[], query: string, hub: string | null): readonly DeviceRow[] {
  const needle = query.trim().toLowerCase();
  const hubLower = hub && hub !== ALL_HUBS ? hub.toLowerCase() : null;
  if (!needle && !hubLower) return rows;
  return rows.filter((row) => (!hubLower || row.hubLower === hubLower) && (!needle || row.trackingIdLower.includes(needle)));
}
