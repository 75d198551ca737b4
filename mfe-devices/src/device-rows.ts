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

/**
 * The pick list's order (docs/screens.md#device-pick-list), the server's too: newest first by the
 * timestamp rule, records without a usable time last, equal times by record id, highest first.
 */
export function compareRows(a: DeviceRow, b: DeviceRow): number {
  // Comparisons, not subtraction: two missing times (-Infinity) would give NaN.
  return a.sortKey === b.sortKey ? b.record.id - a.record.id : a.sortKey < b.sortKey ? 1 : -1;
}

/** Rows sorted newest first by the timestamp rule; records without a usable time go last. */
export function toDeviceRows(records: readonly DeviceRecord[]): DeviceRow[] {
  return records.map(toDeviceRow).sort(compareRows);
}

/**
 * The rows loaded of a list after some of its records changed (docs/screens.md#live-updates):
 * `asked` are the ids re-read through the list's query, `matching` those of them that still
 * match its filters. Each asked row leaves its place; each matching one goes to its place in the
 * order when that place is not past `boundary`, the row the next page's cursor names (null: the
 * whole list is loaded). One past it is left to the next page, which brings what sorts after it.
 */
export function placeChangedRows(
  rows: readonly DeviceRow[],
  asked: ReadonlySet<number>,
  matching: readonly DeviceRow[],
  boundary: DeviceRow | null,
): DeviceRow[] {
  const placed = rows.filter((row) => !asked.has(row.record.id));
  for (const row of matching) {
    if (!asked.has(row.record.id) || (boundary && compareRows(row, boundary) > 0)) continue;
    placed.splice(sortedIndex(placed, row), 0, row);
  }
  return placed;
}

/** Where `row` goes in `rows` (sorted by compareRows): a binary search, as a list may hold thousands loaded. */
function sortedIndex(rows: readonly DeviceRow[], row: DeviceRow): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareRows(rows[middle]!, row) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function hubOptions(records: readonly DeviceRecord[]): { value: string; label: string }[] {
  return [
    { value: ALL_HUBS, label: 'All Hubs' },
    ...distinctHubCodes(records).map((code) => ({ value: code, label: code })),
  ];
}

/** Rows whose tracking ID contains `query` (case-insensitive) and whose hub is `hub` (null or ALL_HUBS: any). */
export function filterRows(rows: readonly DeviceRow[], query: string, hub: string | null): readonly DeviceRow[] {
  const needle = query.trim().toLowerCase();
  const hubLower = hub && hub !== ALL_HUBS ? hub.toLowerCase() : null;
  if (!needle && !hubLower) return rows;
  return rows.filter(
    (row) => (!hubLower || row.hubLower === hubLower) && (!needle || row.trackingIdLower.includes(needle)),
  );
}
