import { makeRecord, mockApi, type MockApi } from '@veritas/shared/testing';
import {
  ALL_CHOICE,
  chosenValue,
  filterParams,
  filtersFromQuery,
  hubChoices,
  queryOfFilters,
  RESULT_CHOICES,
  scrollRows,
  STATUS_CHOICES,
  type DeviceFilters,
} from './device-pages';
import { devicesByIds, devicesKey, fetchDeviceCount, fetchDevicePage, getDeviceHubs } from './api/devices';

const NO_FILTERS: DeviceFilters = { q: '', hub: null, status: null, result: null };

describe('filters in the URL query', () => {
  test('are read from ?q=&hub=&status=&result=; status and result are matched ignoring case', () => {
    expect(filtersFromQuery(new URLSearchParams('q=%20trk%20&hub=blr01&status=Verified&result=e004'))).toEqual({
      q: ' trk ',
      hub: 'blr01',
      status: 'verified',
      result: 'E004',
    });
    expect(filtersFromQuery(new URLSearchParams('result=PASSED')).result).toBe('passed');
  });

  test("unknown statuses and results, and an empty hub, are no filter; 'all' is the 'All …' choice", () => {
    expect(filtersFromQuery(new URLSearchParams('hub=%20&status=lost&result=E999'))).toEqual(NO_FILTERS);
    expect(filtersFromQuery(new URLSearchParams('hub=ALL&status=all&result=all'))).toEqual({
      q: '',
      hub: ALL_CHOICE,
      status: ALL_CHOICE,
      result: ALL_CHOICE,
    });
  });

  test('are written as chosen, the text as typed, leaving out what is empty', () => {
    expect(queryOfFilters({ q: ' trk ', hub: ALL_CHOICE, status: null, result: 'E004' })).toEqual({
      q: ' trk ',
      hub: ALL_CHOICE,
      result: 'E004',
    });
    expect(queryOfFilters(NO_FILTERS)).toEqual({});
  });
});

describe('the parameters sent', () => {
  test("trim the text and leave out empty filters and 'All …' choices", () => {
    expect(filterParams({ q: '  trk-1 ', hub: 'BLR01', status: 'pending', result: 'passed' })).toEqual({
      q: 'trk-1',
      hub: 'BLR01',
      status: 'pending',
      result: 'passed',
    });
    expect(filterParams({ q: '   ', hub: ALL_CHOICE, status: ALL_CHOICE, result: ALL_CHOICE })).toEqual({});
  });

  test('name the list: texts differing only by surrounding spaces are one list', () => {
    expect(devicesKey(NO_FILTERS)).toBe('api/devices/');
    expect(devicesKey({ ...NO_FILTERS, q: ' a b ', hub: 'X' })).toBe('api/devices/?q=a+b&hub=X');
    expect(devicesKey({ ...NO_FILTERS, q: 'a b' })).toBe(devicesKey({ ...NO_FILTERS, q: ' a b  ' }));
  });
});

describe('choices', () => {
  test("status: 'All Statuses', then the server's value for each status text", () => {
    expect(STATUS_CHOICES).toEqual([
      { value: ALL_CHOICE, label: 'All Statuses' },
      { value: 'pending', label: 'Pending' },
      { value: 'submitted', label: 'Submitted for verification' },
      { value: 'verified', label: 'verified at hub' },
      { value: 'detached', label: 'Detatched' },
    ]);
  });

  test("result: 'All Results', Passed, then E001 … E010 of the catalogue with their titles", () => {
    expect(RESULT_CHOICES.map((c) => c.value)).toEqual([
      ALL_CHOICE,
      'passed',
      ...Array.from({ length: 10 }, (_, i) => `E${String(i + 1).padStart(3, '0')}`),
    ]);
    expect(RESULT_CHOICES[3]).toEqual({ value: 'E002', label: 'E002: Oops...Wrong TID.' });
  });

  test("hub: 'All Hubs', the server's hubs, and a hub of the URL the server did not name", () => {
    expect(hubChoices(['BOM02', 'DEL01'], 'del01').map((c) => c.label)).toEqual(['All Hubs', 'BOM02', 'DEL01']);
    expect(hubChoices(['BOM02'], 'XYZ9').map((c) => c.value)).toEqual([ALL_CHOICE, 'BOM02', 'XYZ9']);
  });

  test('the value shown is the choice named, ignoring case', () => {
    const options = hubChoices(['DEL01'], null);
    expect(chosenValue(options, 'del01')).toBe('DEL01');
    expect(chosenValue(options, null)).toBeNull();
  });
});

test('the scroll area holds the total while more pages follow, else the rows loaded', () => {
  expect(scrollRows(100, 5000, true)).toBe(5000);
  expect(scrollRows(100, undefined, true)).toBe(100);
  expect(scrollRows(120, 100, true)).toBe(120);
  expect(scrollRows(80, 100, false)).toBe(80);
});

describe('calls', () => {
  let api: MockApi;
  beforeEach(() => (api = mockApi()));
  afterEach(() => api.restore());
  const signal = new AbortController().signal;

  test('a page: api/devices/ with the filters, the cursor and the limit; records become rows', async () => {
    const record = makeRecord({
      id: 7,
      tracking_id: { tracking_id: 'TRK-7', hub_code: 'DEL01', created_date: '2025-03-01T10:00:00Z' },
    });
    api.on('GET api/devices/', [200, { records: [record], next: 'abc' }]);
    const page = await fetchDevicePage('api/devices/?q=trk&hub=DEL01', 'xyz', 250, signal);
    expect(api.requests[0]!.config.params).toEqual({ q: 'trk', hub: 'DEL01', after: 'xyz', limit: '250' });
    expect(api.requests[0]!.config.signal).toBe(signal);
    expect(page.next).toBe('abc');
    expect(page.items.map((row) => [row.record.id, row.timestamp.kind])).toEqual([[7, 'created']]);
  });

  test('the first page is asked for without a cursor; next null ends the list', async () => {
    api.on('GET api/devices/', [200, { records: [], next: null }]);
    await expect(fetchDevicePage('api/devices/', null, 100, signal)).resolves.toEqual({
      list: 'api/devices/',
      items: [],
      next: null,
      boundary: null,
    });
    expect(api.requests[0]!.config.params).toEqual({ limit: '100' });
  });

  test('a page answer without a list of records is an error', async () => {
    api.on('GET api/devices/', [200, [{ id: 1 }]]);
    await expect(fetchDevicePage('api/devices/', null, 100, signal)).rejects.toThrow(
      'api/devices/ did not answer a page of records',
    );
  });

  test('the total: api/devices/count/ with the filters; an answer without a number is an error', async () => {
    api.on('GET api/devices/count/', [200, { total: 42 }]);
    await expect(fetchDeviceCount('api/devices/?status=pending', signal)).resolves.toEqual({ total: 42, more: false });
    expect(api.requests[0]!.config.params).toEqual({ status: 'pending' });
    api.on('GET api/devices/count/', [200, { total: 10_000, more: true }]);
    await expect(fetchDeviceCount('api/devices/?q=1', signal)).resolves.toEqual({ total: 10_000, more: true });
    api.on('GET api/devices/count/', [200, { total: '42' }]);
    await expect(fetchDeviceCount('api/devices/', signal)).rejects.toThrow('did not answer a total');
  });

  test('records re-read by id: api/devices/ with the filters of the list and ids; the rows of those still matching', async () => {
    const record = makeRecord({ id: 9, tracking_id: { tracking_id: 'TRK-9' } });
    api.on('GET api/devices/', [200, { records: [record], next: null }]);
    const rows = await devicesByIds('api/devices/?q=trk&status=pending', [9, 12]);
    expect(api.requests[0]!.config.params).toEqual({ q: 'trk', status: 'pending', ids: '9,12' });
    expect(rows.map((row) => row.record.id)).toEqual([9]);
    api.on('GET api/devices/', [200, { detail: 'x' }]);
    await expect(devicesByIds('api/devices/', [1])).rejects.toThrow('did not answer the records asked for');
  });

  test('the hubs: api/devices/hubs/, empty names dropped; an answer without a list is an error', async () => {
    api.on('GET api/devices/hubs/', [200, { hubs: ['BOM02', '', 'DEL01'] }]);
    await expect(getDeviceHubs()).resolves.toEqual(['BOM02', 'DEL01']);
    api.on('GET api/devices/hubs/', [200, ['BOM02']]);
    await expect(getDeviceHubs()).rejects.toThrow('did not answer a list of hubs');
  });
});
