// The Device Pick List following the live event stream (docs/screens.md#live-updates): served a
// page at a time (device-pages), and from api/get_status/ without it.
import { MemoryRouter, recordStatus, useSession, type DeviceRecord, type ServerFeature } from '@veritas/shared';
import {
  FakeEventSource,
  makeRecord,
  mockApi,
  withFakeLiveStream,
  type MockApi,
  type RecordedRequest,
  withQueryClient,
} from '@veritas/shared/testing';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { STATUS_FILTERS } from './device-pages';
import { compareRows, toDeviceRows, type DeviceRow } from './device-rows';
import { ROW_HEIGHT } from './row-geometry';
import ListDevices from './list-devices';
import { REFRESH_EVERY_MS, REREAD_AFTER_MS } from './use-live-device-pages';

/** n pending records, newest first: TRK-0000 (id n) is the newest. */
function records(n: number): DeviceRecord[] {
  return Array.from({ length: n }, (_, i) =>
    makeRecord({
      id: n - i,
      tracking_id: {
        tracking_id: `TRK-${String(i).padStart(4, '0')}`,
        hub_code: 'DEL01',
        created_date: new Date(Date.UTC(2025, 0, 1) - i * 60_000).toISOString(),
      },
    }),
  );
}

/** The record scanned at the doorstep now: its timestamp becomes the newest of all. */
let clock = Date.UTC(2025, 5, 1);
const submitted = (record: DeviceRecord): DeviceRecord => ({
  ...record,
  is_submit: true,
  submit_time: new Date((clock += 60_000)).toISOString(),
  submitted_by: { username: 'wm_asha' },
  device_result: 'passed',
});
/** Detached at a return centre: its timestamp (the hub verification) does not change. */
const detached = (record: DeviceRecord): DeviceRecord => ({
  ...record,
  is_submit: true,
  submit_time: '2024-12-01T00:00:00Z',
  is_verified: true,
  verify_time: record.tracking_id.created_date,
  is_verified_rc: true,
  is_verified_rc_by: true,
  device_result: 'passed',
});

let api: MockApi;
let eventId = 0;
/** The server's records: tests change them, then send the event, as the server commits first. */
let all: DeviceRecord[];

const params = (request: RecordedRequest) => request.config.params as Record<string, string>;
const statusText = (value: string) => STATUS_FILTERS.find((s) => s.value === value)?.label;

/** The server's list for the filters q and status, in the pick list's order. */
function listed(p: Record<string, string>): DeviceRow[] {
  return toDeviceRows(all).filter(
    (row) =>
      (!p.q || row.trackingIdLower.includes(p.q.toLowerCase())) &&
      (!p.status || recordStatus(row.record) === statusText(p.status)),
  );
}

/** api/devices/ with a keyset cursor ("sortKey_id" of the last record sent) and ?ids=, the count, the hubs, get_status. */
function serve(initial: DeviceRecord[]) {
  all = initial;
  api = mockApi()
    .on('GET api/devices/', (request) => {
      const p = params(request);
      const rows = listed(p);
      if (p.ids) {
        const ids = new Set(p.ids.split(',').map(Number));
        return [200, { records: rows.filter((row) => ids.has(row.record.id)).map((row) => row.record), next: null }];
      }
      let from = 0;
      if (p.after) {
        const [sortKey, id] = p.after.split('_').map(Number);
        const cursor = { sortKey, record: { id } } as DeviceRow;
        from = rows.findIndex((row) => compareRows(row, cursor) > 0);
        if (from < 0) from = rows.length;
      }
      const page = rows.slice(from, from + Number(p.limit));
      const last = page[page.length - 1];
      const more = from + page.length < rows.length && last;
      return [200, { records: page.map((row) => row.record), next: more ? `${last.sortKey}_${last.record.id}` : null }];
    })
    .on('GET api/devices/count/', (request) => [200, { total: listed(params(request)).length }])
    .on('GET api/devices/hubs/', [200, { hubs: ['DEL01'] }])
    .on('GET api/get_status/', () => [200, all]);
}

/** The server changes records, then sends the event of that change. */
function change(action: 'submitted' | 'verified' | 'detached', ...changed: DeviceRecord[]) {
  for (const record of changed) all = all.map((r) => (r.id === record.id ? record : r));
  act(() => FakeEventSource.latest!.emit('records', { action, records: changed }, ++eventId));
}

function send(type: string, data: unknown) {
  act(() => FakeEventSource.latest!.emit(type, data, ++eventId));
}

withFakeLiveStream();

function start(features: ServerFeature[]) {
  act(() => useSession.getState().setSession({ user: 'someone', role: 'admin', hubCode: null, features }));
  act(() => FakeEventSource.latest!.open());
}

beforeAll(() => jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600));
afterAll(() => jest.restoreAllMocks());
afterEach(() => {
  api.restore();
  jest.useRealTimers();
});

function renderList(url = '/ListDevices') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <ListDevices />
    </MemoryRouter>,
    { wrapper: withQueryClient() },
  );
}

const loaded = () => waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
const rows = () => screen.queryAllByTestId('device-row');
const trackingIds = () => rows().map((r) => r.dataset.trackingId);
const row = (trackingId: string) => rows().find((r) => r.dataset.trackingId === trackingId);
const count = () => screen.getByTestId('record-count');
/** The line the count stands in, the status message a screen reader follows. */
const countLine = () => count().parentElement!;
const scroller = () => screen.getByTestId('device-table-scroll');
const pageCalls = () => api.requestsTo('GET api/devices/').map(params);
const idCalls = () => pageCalls().filter((p) => p.ids);
const firstPageCalls = () => pageCalls().filter((p) => !p.ids && !p.after);
const countCalls = () => api.requestsTo('GET api/devices/count/');

function scrollTo(index: number) {
  act(() => {
    scroller().scrollTop = index * ROW_HEIGHT;
    fireEvent.scroll(scroller());
  });
}

/** Scrolls to row 60, which fetches the second page, and waits for it. */
async function scrollToRow60() {
  scrollTo(60);
  await waitFor(() => expect(pageCalls().some((p) => p.after)).toBe(true));
  await act(async () => {});
  expect(placeholdersInView()).toHaveLength(0);
}
const placeholdersInView = () => screen.queryAllByTestId('device-row-placeholder');

describe('served a page at a time (device-pages)', () => {
  beforeEach(() => start(['device-pages', 'live-events']));

  test('a loaded record still matching is re-read through the list query (?ids= with the filters) and updated in place', async () => {
    serve(records(250));
    renderList('/ListDevices?q=TRK-00');
    await loaded();
    const before = trackingIds();
    change('detached', detached(all[5]!));
    await waitFor(() =>
      expect(row('TRK-0005')!.querySelector('[data-column="status"]')).toHaveTextContent('Detatched'),
    );
    expect(idCalls()).toEqual([{ q: 'TRK-00', ids: String(all[5]!.id) }]);
    expect(trackingIds()).toEqual(before);
  });

  test('a record not loaded that now matches is put at its sorted place: a field scan goes to the top; the count is asked again', async () => {
    serve(records(250));
    renderList();
    await loaded();
    await waitFor(() => expect(count()).toHaveTextContent('250 records'));
    expect(trackingIds()).not.toContain('TRK-0200');
    change('submitted', submitted(all[200]!));
    await waitFor(() => expect(trackingIds()[0]).toBe('TRK-0200'));
    expect(trackingIds().slice(1, 3)).toEqual(['TRK-0000', 'TRK-0001']);
    expect(row('TRK-0200')!.querySelector('[data-column="status"]')).toHaveTextContent('Submitted for verification');
    await waitFor(() => expect(countCalls()).toHaveLength(2));
    // At the very top the list shows its top: the new row is in view.
    expect(scroller().scrollTop).toBe(0);
  });

  test('a record past the rows loaded (below the next cursor) is left to the page that holds it', async () => {
    serve(records(250));
    renderList();
    await loaded();
    // Detached keeps its time: its place is below the 100 rows loaded.
    change('detached', detached(all[180]!));
    await waitFor(() => expect(idCalls()).toHaveLength(1));
    await act(async () => {});
    expect(trackingIds()).not.toContain('TRK-0180');
    scrollTo(175);
    await waitFor(() => expect(row('TRK-0180')).toBeDefined());
    expect(row('TRK-0180')!.querySelector('[data-column="status"]')).toHaveTextContent('Detatched');
    expect(new Set(trackingIds()).size).toBe(trackingIds().length);
  });

  test('a loaded record that no longer matches the filters leaves the list; the count follows, unannounced', async () => {
    serve(records(30));
    renderList('/ListDevices?status=pending');
    await loaded();
    await waitFor(() => expect(count()).toHaveTextContent('30 records'));
    expect(countLine()).toHaveAttribute('aria-live', 'polite');
    change('submitted', submitted(all[3]!));
    await waitFor(() => expect(trackingIds()).not.toContain('TRK-0003'));
    expect(idCalls()).toEqual([{ status: 'pending', ids: String(all[3]!.id) }]);
    await waitFor(() => expect(count()).toHaveTextContent('29 records'));
    expect(screen.getByRole('table', { name: 'Devices' })).toHaveAttribute('aria-rowcount', '30');
    // A screen reader announces the count a filter gives, not each change live updates make to it.
    expect(countLine()).toHaveAttribute('aria-live', 'off');
  });

  test('the row at the top of the view keeps its place on screen: rows put or removed above it move the scroll by their height', async () => {
    serve(records(250));
    renderList('/ListDevices?status=pending');
    await loaded();
    await scrollToRow60();
    expect(scroller().scrollTop).toBe(60 * ROW_HEIGHT);

    // Removed above the view (no longer pending): one row less above.
    change('submitted', submitted(all[10]!));
    await waitFor(() => expect(idCalls()).toHaveLength(1));
    await act(async () => {});
    expect(scroller().scrollTop).toBe(59 * ROW_HEIGHT);

    // A record of the list changed below the view and moved above it (a newer time): one row more above.
    const moved = { ...all[150]!, tracking_id: { ...all[150]!.tracking_id, created_date: '2025-03-01T00:00:00Z' } };
    change('verified', moved);
    await waitFor(() => expect(idCalls()).toHaveLength(2));
    await act(async () => {});
    expect(scroller().scrollTop).toBe(60 * ROW_HEIGHT);
    fireEvent.scroll(scroller());
    // TRK-0060 was at the top of the view; it still is: index 60 (TRK-0010 gone, TRK-0150 above).
    expect(row('TRK-0060')).toHaveAttribute('aria-rowindex', String(60 + 2));
  });

  test('a burst of changes is gathered into one re-read (at most 100 ids a call) and one count', async () => {
    serve(records(250));
    renderList();
    await loaded();
    await waitFor(() => expect(countCalls()).toHaveLength(1));
    for (let i = 0; i < 150; i++) change('detached', detached(all[i]!));
    await waitFor(() => expect(idCalls()).toHaveLength(2));
    expect(idCalls().map((p) => p.ids!.split(',').length)).toEqual([100, 50]);
    await waitFor(() =>
      expect(row('TRK-0000')!.querySelector('[data-column="status"]')).toHaveTextContent('Detatched'),
    );
    expect(countCalls()).toHaveLength(2);
  });

  test('a lone change is re-read without waiting; changes coming while it is on its way are gathered into one re-read after it', async () => {
    jest.useFakeTimers();
    serve(records(50));
    renderList();
    await loaded();
    const held: (() => void)[] = [];
    api.on('GET api/devices/', (request) => {
      const ids = new Set(params(request).ids!.split(',').map(Number));
      const answer = listed(params(request)).filter((row) => ids.has(row.record.id));
      return new Promise((resolve) =>
        held.push(() => resolve([200, { records: answer.map((row) => row.record), next: null }])),
      );
    });
    const lone = detached(all[1]!);
    change('detached', lone);
    // No timer has run: the re-read went out at once.
    await act(async () => {});
    expect(idCalls()).toEqual([{ ids: String(lone.id) }]);

    const burst = [2, 3, 4].map((i) => detached(all[i]!));
    for (const record of burst) {
      change('detached', record);
      await act(async () => {});
    }
    expect(idCalls()).toHaveLength(1);
    await act(async () => held.shift()!());
    await act(() => jest.advanceTimersByTimeAsync(REREAD_AFTER_MS));
    expect(idCalls()).toHaveLength(2);
    expect(idCalls()[1]!.ids!.split(',').map(Number)).toEqual(burst.map((record) => record.id));
    await act(async () => held.shift()!());
    await waitFor(() =>
      expect(row('TRK-0004')!.querySelector('[data-column="status"]')).toHaveTextContent('Detatched'),
    );
    expect(idCalls()).toHaveLength(2);
  });

  test('the count is asked again at most once a second, and once more after the last change', async () => {
    jest.useFakeTimers();
    serve(records(50));
    renderList();
    await loaded();
    await waitFor(() => expect(countCalls()).toHaveLength(1));
    change('detached', detached(all[1]!));
    await act(() => jest.advanceTimersByTimeAsync(REREAD_AFTER_MS));
    expect(countCalls()).toHaveLength(2);
    change('detached', detached(all[2]!));
    await act(() => jest.advanceTimersByTimeAsync(REREAD_AFTER_MS));
    change('detached', detached(all[3]!));
    await act(() => jest.advanceTimersByTimeAsync(REREAD_AFTER_MS));
    expect(idCalls()).toHaveLength(3);
    expect(countCalls()).toHaveLength(2);
    await act(() => jest.advanceTimersByTimeAsync(REFRESH_EVERY_MS));
    expect(countCalls()).toHaveLength(3);
    await act(() => jest.advanceTimersByTimeAsync(5 * REFRESH_EVERY_MS));
    expect(countCalls()).toHaveLength(3);
  });

  test('an upload while the top is in view fetches the first page again; further down only the count, and the first page once back at the top', async () => {
    serve(records(250));
    renderList();
    await loaded();
    const uploaded = makeRecord({
      id: 999,
      tracking_id: { tracking_id: 'NEW-1', hub_code: 'DEL01', created_date: '2025-02-01T00:00:00Z' },
    });
    all = [...all, uploaded];
    send('records', { action: 'uploaded', count: 1, hubs: ['DEL01'] });
    await waitFor(() => expect(trackingIds()[0]).toBe('NEW-1'));
    expect(firstPageCalls()).toHaveLength(2);

    await scrollToRow60();
    const counted = countCalls().length;
    all = [...all, { ...uploaded, id: 1000, tracking_id: { ...uploaded.tracking_id, tracking_id: 'NEW-2' } }];
    // Past the throttle of the first page's reloads, so that coming back to the top reloads at once.
    await act(() => new Promise((resolve) => setTimeout(resolve, REFRESH_EVERY_MS)));
    send('records', { action: 'uploaded', count: 1, hubs: ['DEL01'] });
    await waitFor(() => expect(countCalls()).toHaveLength(counted + 1));
    await waitFor(() => expect(count()).toHaveTextContent('252 records'));
    expect(firstPageCalls()).toHaveLength(2);
    expect(scroller().scrollTop).toBe(60 * ROW_HEIGHT);

    scrollTo(0);
    await waitFor(() => expect(firstPageCalls()).toHaveLength(3));
    await waitFor(() => expect(trackingIds()[0]).toBe('NEW-2'));
  });

  test('an upload naming a hub not offered fetches the hubs again', async () => {
    serve(records(5));
    renderList();
    await loaded();
    await waitFor(() => expect(api.requestsTo('GET api/devices/hubs/')).toHaveLength(1));
    send('records', { action: 'uploaded', count: 3, hubs: ['del01'] });
    send('records', { action: 'uploaded', count: 3, hubs: ['HYD09'] });
    send('records', { action: 'uploaded', count: 3, hubs: ['HYD09'] });
    await waitFor(() => expect(api.requestsTo('GET api/devices/hubs/')).toHaveLength(2));
  });

  test('a reset fetches the list again with the same filters', async () => {
    serve(records(30));
    renderList('/ListDevices?q=TRK-001');
    await loaded();
    all = all.map((r) => (r.id === all[12]!.id ? submitted(r) : r));
    send('reset', {});
    await waitFor(() =>
      expect(row('TRK-0012')!.querySelector('[data-column="status"]')).toHaveTextContent('Submitted for verification'),
    );
    expect(firstPageCalls()).toEqual([
      { q: 'TRK-001', limit: '100' },
      { q: 'TRK-001', limit: '100' },
    ]);
  });
});

describe('from api/get_status/ (live-events without device-pages)', () => {
  beforeEach(() => start(['live-events']));

  test("an event's records replace their rows or are added, sorted and filtered as the page does", async () => {
    serve(records(20));
    renderList();
    await loaded();
    expect(count()).toHaveTextContent('20 records');
    const fresh = makeRecord({
      id: 500,
      tracking_id: { tracking_id: 'TRK-NEW', hub_code: 'DEL01', created_date: '2025-01-01T00:00:00Z' },
    });
    change('submitted', submitted(all[7]!), submitted(fresh));
    await waitFor(() => expect(trackingIds().slice(0, 2)).toEqual(['TRK-NEW', 'TRK-0007']));
    expect(count()).toHaveTextContent('21 records');
    // The count a live change makes is not announced; the one a filter gives is.
    expect(countLine()).toHaveAttribute('aria-live', 'off');
    fireEvent.change(screen.getByPlaceholderText('Filter by tracking id...'), { target: { value: 'new' } });
    await waitFor(() => expect(trackingIds()).toEqual(['TRK-NEW']));
    expect(countLine()).toHaveAttribute('aria-live', 'polite');
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(1);
  });

  test('the row at the top of the view keeps its place when rows are added above it', async () => {
    serve(records(100));
    renderList();
    await loaded();
    scrollTo(30);
    change('submitted', submitted(all[80]!));
    await waitFor(() => expect(scroller().scrollTop).toBe(31 * ROW_HEIGHT));
  });

  test('an upload or a reset fetches every record again, at most once every 10 s', async () => {
    jest.useFakeTimers();
    serve(records(5));
    renderList();
    await loaded();
    const uploaded = makeRecord({ id: 77, tracking_id: { tracking_id: 'UP-1', created_date: '2025-02-01T00:00:00Z' } });
    all = [...all, uploaded];
    send('records', { action: 'uploaded', count: 1, hubs: ['HUB01'] });
    await waitFor(() => expect(trackingIds()[0]).toBe('UP-1'));
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(2);
    send('records', { action: 'uploaded', count: 1, hubs: ['HUB01'] });
    send('reset', {});
    await act(() => jest.advanceTimersByTimeAsync(9000));
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(2);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(3);
  });

  test('a change applied while the whole list is being fetched again is applied over its answer too', async () => {
    serve(records(5));
    renderList();
    await loaded();
    let answer!: () => void;
    const stale = all;
    api.on('GET api/get_status/', () => new Promise((resolve) => (answer = () => resolve([200, stale]))));
    send('records', { action: 'uploaded', count: 0, hubs: [] });
    change('submitted', submitted(all[4]!));
    await waitFor(() => expect(trackingIds()[0]).toBe('TRK-0004'));
    await act(async () => answer());
    expect(trackingIds()[0]).toBe('TRK-0004');
    expect(row('TRK-0004')!.querySelector('[data-column="status"]')).toHaveTextContent('Submitted for verification');
  });
});
