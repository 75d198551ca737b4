import { ALL_HUBS } from '@veritas/shared';
import { makeRecord } from '@veritas/shared/testing';
import { filterRows, hubOptions, placeChangedRows, toDeviceRow, toDeviceRows } from './device-rows';

const pending = makeRecord({
  id: 1,
  tracking_id: { tracking_id: 'TRK-A', hub_code: 'DEL01', created_date: '2025-03-01T00:00:00Z' },
});
const submitted = makeRecord({
  id: 2,
  tracking_id: { tracking_id: 'TRK-B', hub_code: 'BOM02', created_date: '2025-02-01T00:00:00Z' },
  is_submit: true,
  submit_time: '2025-03-05T00:00:00Z',
});
const verified = makeRecord({
  id: 3,
  tracking_id: { tracking_id: 'trk-c', hub_code: 'del01', created_date: '2025-01-01T00:00:00Z' },
  is_submit: true,
  submit_time: '2025-01-02T00:00:00Z',
  is_verified: true,
  verify_time: '2025-03-03T00:00:00Z',
});
const undated = makeRecord({ id: 4, tracking_id: { tracking_id: 'TRK-D', hub_code: null, created_date: null } });

describe('toDeviceRows', () => {
  test('sorts newest first by the timestamp rule (verify, else submit, else created)', () => {
    const ids = toDeviceRows([pending, undated, verified, submitted]).map((r) => r.record.id);
    expect(ids).toEqual([2, 3, 1, 4]);
  });

  test('records without a usable time sort last, newest id first among them', () => {
    const a = makeRecord({ id: 10, tracking_id: { created_date: null } });
    const b = makeRecord({ id: 11, tracking_id: { created_date: 'bad' } });
    expect(toDeviceRows([a, pending, b]).map((r) => r.record.id)).toEqual([1, 11, 10]);
  });

  test('precomputes the timestamp kind of each row', () => {
    const kinds = Object.fromEntries(
      toDeviceRows([pending, submitted, verified]).map((r) => [r.record.id, r.timestamp.kind]),
    );
    expect(kinds).toEqual({ 1: 'created', 2: 'submitted', 3: 'verified' });
  });
});

describe('hubOptions', () => {
  test("lists 'All Hubs' first, then the distinct hub codes in the data", () => {
    expect(hubOptions([pending, submitted, verified, undated])).toEqual([
      { value: ALL_HUBS, label: 'All Hubs' },
      { value: 'BOM02', label: 'BOM02' },
      { value: 'DEL01', label: 'DEL01' },
    ]);
  });
});

describe('filterRows', () => {
  const rows = toDeviceRows([pending, submitted, verified, undated]);
  const ids = (r: readonly { record: { id: number } }[]) => r.map((x) => x.record.id).sort();

  test('matches any part of the tracking id, case-insensitively', () => {
    expect(ids(filterRows(rows, 'k-c', null))).toEqual([3]);
    expect(ids(filterRows(rows, ' TRK ', null))).toEqual([1, 2, 3, 4]);
  });

  test('filters by hub case-insensitively', () => {
    expect(ids(filterRows(rows, '', 'DEL01'))).toEqual([1, 3]);
  });

  test("'All Hubs' and no hub do not filter", () => {
    expect(filterRows(rows, '', ALL_HUBS)).toBe(rows);
    expect(filterRows(rows, '', null)).toBe(rows);
  });

  test('combines the tracking id and hub filters', () => {
    expect(ids(filterRows(rows, 'trk-a', 'DEL01'))).toEqual([1]);
    expect(ids(filterRows(rows, 'trk-b', 'DEL01'))).toEqual([]);
  });
});

describe('placeChangedRows (docs/screens.md#live-updates)', () => {
  /** Records 1..n created a day apart, the newest (n) first. */
  const dated = (id: number, day: number) =>
    makeRecord({
      id,
      tracking_id: { tracking_id: `T${id}`, created_date: `2025-01-${String(day).padStart(2, '0')}T00:00:00Z` },
    });
  const rows = toDeviceRows([1, 2, 3, 4, 5, 6].map((id) => dated(id, id + 10)));
  const ids = (list: readonly { record: { id: number } }[]) => list.map((row) => row.record.id);
  const asked = (...list: number[]) => new Set(list);

  test('a changed row still matching stays at its place, or moves to its new one', () => {
    expect(ids(placeChangedRows(rows, asked(4), [toDeviceRow(dated(4, 14))], null))).toEqual([6, 5, 4, 3, 2, 1]);
    expect(ids(placeChangedRows(rows, asked(2), [toDeviceRow(dated(2, 30))], null))).toEqual([2, 6, 5, 4, 3, 1]);
  });

  test('a row no longer matching leaves; a new matching one is put at its place', () => {
    expect(ids(placeChangedRows(rows, asked(5, 9), [toDeviceRow(dated(9, 13))], null))).toEqual([6, 4, 9, 3, 2, 1]);
  });

  test("one sorting past the boundary (the row the next page's cursor names) is left to that page", () => {
    const loaded = rows.slice(0, 3); // 6, 5, 4; the cursor names 4
    const boundary = loaded[2]!;
    const placed = placeChangedRows(
      loaded,
      asked(7, 8, 4),
      [toDeviceRow(dated(7, 1)), toDeviceRow(dated(8, 15)), toDeviceRow(dated(4, 14))],
      boundary,
    );
    expect(ids(placed)).toEqual([6, 8, 5, 4]);
    // The row the cursor names, changed and now sorting after its old place: the next page brings it.
    expect(ids(placeChangedRows(loaded, asked(4), [toDeviceRow(dated(4, 2))], boundary))).toEqual([6, 5]);
  });

  test('rows answered that were not asked for are not put in', () => {
    expect(ids(placeChangedRows(rows, asked(1), [toDeviceRow(dated(1, 11)), toDeviceRow(dated(6, 16))], null))).toEqual(
      [6, 5, 4, 3, 2, 1],
    );
  });
});
