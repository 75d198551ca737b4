// The Device Pick List with the server feature 'device-pages' (docs/screens.md#device-pick-list):
// the same page served a page at a time. list-devices.test.tsx covers the page without it.
import { MemoryRouter, useLocation, useNavigationType, useSession, type DeviceRecord } from '@veritas/shared';
import {
  makeRecord,
  mockApi,
  type MockApi,
  type MockReply,
  type RecordedRequest,
  withQueryClient,
} from '@veritas/shared/testing';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ROW_HEIGHT } from './row-geometry';
import ListDevices from './list-devices';

/** n records, newest first (as the server answers them): TRK-0000 is the newest. */
function records(n: number, hub = 'DEL01'): DeviceRecord[] {
  return Array.from({ length: n }, (_, i) =>
    makeRecord({
      id: n - i,
      tracking_id: {
        tracking_id: `TRK-${String(i).padStart(4, '0')}`,
        hub_code: hub,
        created_date: new Date(Date.UTC(2025, 0, 1) - i * 60_000).toISOString(),
      },
    }),
  );
}

const verified = makeRecord({
  id: 9001,
  tracking_id: {
    tracking_id: 'TRK-VERI',
    hub_code: 'BOM02',
    created_date: '2025-01-01T10:00:00Z',
    device_type: 'laptop',
  },
  is_submit: true,
  submit_time: '2025-01-02T10:00:00Z',
  submitted_by: { username: 'wm_asha' },
  is_verified: true,
  verify_time: '2025-03-03T10:00:00Z',
  verified_by: { username: 'hub_meena' },
  device_result: 'E006',
});

let api: MockApi;

// jsdom has no layout: give the table's scroll container a height so the virtualizer renders rows.
beforeAll(() => jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600));
afterAll(() => jest.restoreAllMocks());
beforeEach(() =>
  useSession.getState().setSession({ user: 'someone', role: 'admin', hubCode: null, features: ['device-pages'] }),
);
afterEach(() => {
  api.restore();
  useSession.getState().clearSession();
});

const params = (request: RecordedRequest) => request.config.params as Record<string, string>;

/**
 * A server over `all` (newest first): api/devices/ filters by tracking-ID text and pages with the
 * index as cursor; the count and the hubs answer alike. `pageReply` replaces a page's answer.
 */
function serve(
  all: DeviceRecord[],
  {
    pageReply,
    hubs = ['BOM02', 'DEL01'],
  }: {
    pageReply?: (request: RecordedRequest) => MockReply | undefined | Promise<MockReply | undefined>;
    hubs?: string[];
  } = {},
) {
  const matching = (p: Record<string, string>) =>
    all.filter((r) => !p.q || r.tracking_id.tracking_id.toLowerCase().includes(p.q.toLowerCase()));
  api = mockApi()
    .on('GET api/devices/', async (request) => {
      const custom = await pageReply?.(request);
      if (custom) return custom;
      const p = params(request);
      const from = p.after ? Number(p.after) : 0;
      const to = from + Number(p.limit);
      const found = matching(p);
      return [200, { records: found.slice(from, to), next: to < found.length ? String(to) : null }];
    })
    .on('GET api/devices/count/', (request) => [200, { total: matching(params(request)).length }])
    .on('GET api/devices/hubs/', [200, { hubs }])
    .on('GET api/get_status/', [200, all]);
}

function Location() {
  const { search } = useLocation();
  return (
    <div data-testid="location" data-navigation={useNavigationType()}>
      {search}
    </div>
  );
}

function renderList(url = '/ListDevices') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <ListDevices />
      <Location />
    </MemoryRouter>,
    { wrapper: withQueryClient() },
  );
}

const loaded = () => waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
const rows = () => screen.queryAllByTestId('device-row');
const placeholders = () => screen.queryAllByTestId('device-row-placeholder');
const trackingIds = () => rows().map((r) => r.dataset.trackingId);
const count = () => screen.getByTestId('record-count');
const search = () => new URLSearchParams(screen.getByTestId('location').textContent!);
const pageCalls = () => api.requestsTo('GET api/devices/').map(params);

/** Scrolls the table so that row `index` is at the top of the view. */
function scrollTo(index: number) {
  const scroller = screen.getByTestId('device-table-scroll');
  act(() => {
    scroller.scrollTop = index * ROW_HEIGHT;
    fireEvent.scroll(scroller);
  });
}

/** A call answered when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

test('with device-pages the rows come from api/devices/ (first page of 100) with the count and the hubs; api/get_status/ is never called', async () => {
  serve(records(250));
  renderList();
  expect(screen.getByRole('status')).toHaveTextContent('Loading devices…');
  await loaded();
  expect(pageCalls()).toEqual([{ limit: '100' }]);
  expect(api.requestsTo('GET api/devices/count/').map(params)).toEqual([{}]);
  expect(api.requestsTo('GET api/devices/hubs/')).toHaveLength(1);
  expect(api.requestsTo('GET api/get_status/')).toHaveLength(0);
  expect(trackingIds()[0]).toBe('TRK-0000');
  await waitFor(() => expect(count()).toHaveTextContent('250 records'));
  expect(count()).toHaveAttribute('data-count', '250');
  // A status message: announced as the filters change it.
  expect(count().closest('[aria-live="polite"]')).not.toBeNull();
});

test('the rows keep the columns, status, result and Device Details of the page without the feature', async () => {
  serve([verified]);
  renderList();
  await loaded();
  expect(screen.getAllByRole('columnheader')).toHaveLength(9);
  const row = rows()[0]!;
  expect(row.querySelector('[data-column="status"]')).toHaveTextContent('verified at hub');
  expect(row.querySelector('[data-column="result"]')).toHaveTextContent('E006');
  expect(row.querySelector('[data-column="timestamp"]')).toHaveClass('dl-ts--verified');
  await waitFor(() => expect(count()).toHaveTextContent('1 record'));
  await userEvent.click(within(row).getByRole('button', { name: 'See Details of TRK-VERI' }));
  expect(within(screen.getByRole('dialog', { name: 'Device Details' })).getAllByTestId('timeline-step')).toHaveLength(
    3,
  );
});

test('the filters of the URL query are sent to api/devices/ and api/devices/count/ (text trimmed) and shown in the toolbar', async () => {
  serve(records(5));
  renderList('/ListDevices?q=%20trk-000%20&hub=del01&status=verified&result=e006');
  await loaded();
  const sent = { q: 'trk-000', hub: 'del01', status: 'verified', result: 'E006' };
  expect(pageCalls()).toEqual([{ ...sent, limit: '100' }]);
  expect(api.requestsTo('GET api/devices/count/').map(params)).toEqual([sent]);
  expect(screen.getByPlaceholderText('Filter by tracking id...')).toHaveValue(' trk-000 ');
  await waitFor(() => expect(screen.getByRole('combobox', { name: 'Filter by hub' })).toHaveValue('DEL01'));
  expect(screen.getByRole('combobox', { name: 'Filter by status' })).toHaveValue('verified at hub');
  expect(screen.getByRole('combobox', { name: 'Filter by result' })).toHaveValue('E006: Brand Mismatch..');
});

test("'All …' choices and unknown values in the URL are not sent", async () => {
  serve(records(5));
  renderList('/ListDevices?q=%20%20&hub=all&status=lost&result=E999');
  await loaded();
  expect(pageCalls()).toEqual([{ limit: '100' }]);
  expect(await screen.findByRole('combobox', { name: 'Filter by hub' })).toHaveValue('All Hubs');
  expect(screen.getByRole('combobox', { name: 'Filter by status' })).toHaveValue('');
});

test('the tracking-ID text goes to the server at most 256 characters long, as its box takes it (a longer q is refused)', async () => {
  serve(records(5));
  renderList(`/ListDevices?q=${'T'.repeat(300)}`);
  await loaded();
  expect(pageCalls()).toEqual([{ q: 'T'.repeat(256), limit: '100' }]);
  const box = screen.getByRole('textbox', { name: 'Filter by tracking id' });
  expect(box).toHaveValue('T'.repeat(256));
  expect(box).toHaveAttribute('maxLength', '256');
});

test('a keystroke asks for the new first page at once, replaces the URL query and shows the new rows and count', async () => {
  serve(records(250));
  renderList();
  await loaded();
  await waitFor(() => expect(count()).toHaveTextContent('250 records'));
  fireEvent.change(screen.getByPlaceholderText('Filter by tracking id...'), { target: { value: 'TRK-000' } });
  // No debounce: the call has left before any timer could fire.
  expect(pageCalls().at(-1)).toEqual({ q: 'TRK-000', limit: '100' });
  expect(api.requestsTo('GET api/devices/count/').at(-1)!.config.params).toEqual({ q: 'TRK-000' });
  await waitFor(() => expect(trackingIds()).toEqual(Array.from({ length: 10 }, (_, i) => `TRK-000${i}`)));
  await waitFor(() => expect(count()).toHaveTextContent('10 records'));
  expect(search().get('q')).toBe('TRK-000');
  expect(screen.getByTestId('location')).toHaveAttribute('data-navigation', 'REPLACE');
});

test('an answer for an older text is dropped and its call aborted; the rows shown are those of the latest text', async () => {
  const slow = gate();
  serve(records(250), {
    pageReply: async (request) => (params(request).q === 'TRK-01' ? (await slow.opened, undefined) : undefined),
  });
  renderList();
  await loaded();
  const input = screen.getByPlaceholderText('Filter by tracking id...');
  fireEvent.change(input, { target: { value: 'TRK-01' } });
  fireEvent.change(input, { target: { value: 'TRK-012' } });
  await waitFor(() => expect(trackingIds()).toEqual(Array.from({ length: 10 }, (_, i) => `TRK-012${i}`)));
  const older = api.requestsTo('GET api/devices/').find((r) => params(r).q === 'TRK-01')!;
  expect(older.config.signal?.aborted).toBe(true);
  await act(async () => slow.open());
  expect(trackingIds()).toEqual(Array.from({ length: 10 }, (_, i) => `TRK-012${i}`));
});

test('while the next filter loads, the previous rows and count stay (no spinner, no blank list)', async () => {
  const slow = gate();
  serve(records(250), {
    pageReply: async (request) => (params(request).q ? (await slow.opened, undefined) : undefined),
  });
  renderList();
  await loaded();
  await waitFor(() => expect(count()).toHaveTextContent('250 records'));
  fireEvent.change(screen.getByPlaceholderText('Filter by tracking id...'), { target: { value: 'TRK-0001' } });
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
  expect(rows().length).toBeGreaterThan(1);
  expect(screen.getByRole('table', { name: 'Devices' })).toHaveAttribute('aria-busy', 'true');
  // The new count answers first: the count shown stays the rows' until their list arrives.
  await waitFor(() => expect(api.requestsTo('GET api/devices/count/')).toHaveLength(2));
  await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(count()).toHaveTextContent('250 records');
  await act(async () => slow.open());
  await waitFor(() => expect(trackingIds()).toEqual(['TRK-0001']));
  expect(screen.getByRole('table', { name: 'Devices' })).not.toHaveAttribute('aria-busy');
  expect(count()).toHaveTextContent('1 record');
});

test('the clear button empties the text, drops it from the URL and asks for the unfiltered list', async () => {
  serve(records(20));
  renderList('/ListDevices?q=TRK-0001');
  await loaded();
  await userEvent.click(screen.getByRole('button', { name: 'Clear tracking id filter' }));
  expect(screen.getByPlaceholderText('Filter by tracking id...')).toHaveValue('');
  expect(pageCalls().at(-1)).toEqual({ limit: '100' });
  await waitFor(() => expect(rows()).toHaveLength(20));
  expect(search().has('q')).toBe(false);
});

test("the hub dropdown offers 'All Hubs' first, then the hubs of api/devices/hubs/; choosing one sends it and puts it in the URL", async () => {
  serve(records(5), { hubs: ['BOM02', 'DEL01'] });
  renderList();
  await loaded();
  const hub = screen.getByRole('combobox', { name: 'Filter by hub' });
  await userEvent.click(hub);
  await waitFor(() =>
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All Hubs', 'BOM02', 'DEL01']),
  );
  await userEvent.click(screen.getByRole('option', { name: 'BOM02' }));
  await waitFor(() => expect(search().get('hub')).toBe('BOM02'));
  expect(pageCalls().at(-1)).toEqual({ hub: 'BOM02', limit: '100' });
  await userEvent.click(hub);
  await userEvent.click(screen.getByRole('option', { name: 'All Hubs' }));
  await waitFor(() => expect(search().get('hub')).toBe('all'));
  expect(pageCalls().at(-1)).toEqual({ limit: '100' });
  expect(hub).toHaveValue('All Hubs');
});

test("the status filter offers 'All Statuses' and the four status texts, and sends the server's value", async () => {
  serve(records(5));
  renderList();
  await loaded();
  const status = screen.getByRole('combobox', { name: 'Filter by status' });
  await userEvent.click(status);
  expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
    'All Statuses',
    'Pending',
    'Submitted for verification',
    'verified at hub',
    'Detatched',
  ]);
  await userEvent.click(screen.getByRole('option', { name: 'Detatched' }));
  await waitFor(() => expect(search().get('status')).toBe('detached'));
  expect(pageCalls().at(-1)).toEqual({ status: 'detached', limit: '100' });
  expect(api.requestsTo('GET api/devices/count/').at(-1)!.config.params).toEqual({ status: 'detached' });
});

test("the result filter offers 'All Results', Passed and every code of the catalogue with its title, by keyboard too", async () => {
  serve(records(5));
  renderList();
  await loaded();
  const result = screen.getByRole('combobox', { name: 'Filter by result' });
  await userEvent.click(result);
  const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
  expect(options.slice(0, 3)).toEqual(['All Results', 'Passed', 'E001: Oops...Wrong TID.']);
  expect(options).toHaveLength(12);
  expect(options.at(-1)).toMatch(/^E010: /);
  await userEvent.keyboard('{Escape}');
  result.focus();
  await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
  await waitFor(() => expect(search().get('result')).toBe('passed'));
  expect(pageCalls().at(-1)).toEqual({ result: 'passed', limit: '100' });
});

test('scrolling near the end of the rows loaded fetches the next page with the cursor; placeholders stand for the rest of the total', async () => {
  serve(records(250));
  renderList();
  await loaded();
  await waitFor(() => expect(count()).toHaveTextContent('250 records'));
  // The scroll area holds all 250 rows from the start.
  expect(screen.getByRole('table', { name: 'Devices' })).toHaveAttribute('aria-rowcount', '251');
  expect(pageCalls()).toHaveLength(1);
  scrollTo(20);
  expect(pageCalls()).toHaveLength(1);
  scrollTo(60);
  expect(pageCalls().at(-1)).toEqual({ after: '100', limit: '100' });
  await waitFor(() => expect(placeholders().length + rows().length).toBeGreaterThan(0));
  await waitFor(() => expect(screen.getByRole('table', { name: 'Devices' })).toHaveAttribute('aria-rowcount', '251'));
  await waitFor(() => expect(trackingIds()).toContain('TRK-0070'));
  await act(async () => {});
  // The page appended keeps the scroll where the user left it.
  expect(screen.getByTestId('device-table-scroll').scrollTop).toBe(60 * ROW_HEIGHT);
  scrollTo(105);
  await waitFor(() => expect(trackingIds()).toContain('TRK-0105'));
  expect(placeholders()).toHaveLength(0);
  expect(pageCalls()).toHaveLength(2);

  // Past the rows loaded: placeholders until their page arrives.
  scrollTo(235);
  expect(placeholders().length).toBeGreaterThan(0);
  expect(placeholders()[0]).toHaveTextContent('Loading…');
  expect(pageCalls().at(-1)).toEqual({ after: '200', limit: '100' });
  await waitFor(() => expect(placeholders()).toHaveLength(0));
  expect(trackingIds()).toContain('TRK-0249');
  expect(pageCalls()).toHaveLength(3);
});

test("a failed first page is only logged: no spinner, an empty list, and no count (never a false '0 records')", async () => {
  const log = jest.spyOn(console, 'error').mockImplementation(() => {});
  serve(records(5), { pageReply: () => [500, { detail: 'boom' }] });
  renderList();
  expect(await screen.findByText('No expectations available')).toBeInTheDocument();
  await waitFor(() => expect(api.requestsTo('GET api/devices/count/')).toHaveLength(1));
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
  expect(screen.queryByTestId('record-count')).not.toBeInTheDocument();
  expect(log).toHaveBeenCalledWith('Failed to fetch device records', expect.anything());
  log.mockRestore();
});

test('a failed next page is only logged; the rows stay, and scrolling further asks again', async () => {
  const log = jest.spyOn(console, 'error').mockImplementation(() => {});
  let failing = true;
  serve(records(250), {
    pageReply: (request) => (params(request).after && failing ? [503, { detail: 'busy' }] : undefined),
  });
  renderList();
  await loaded();
  await waitFor(() => expect(count()).toHaveTextContent('250 records'));
  scrollTo(95);
  await waitFor(() => expect(log).toHaveBeenCalledWith('Failed to fetch device records', expect.anything()));
  await waitFor(() => expect(placeholders()[0]).toHaveTextContent('Not loaded. Scroll to try again.'));
  expect(rows().length).toBeGreaterThan(0);
  expect(pageCalls()).toHaveLength(2);

  failing = false;
  scrollTo(96);
  expect(pageCalls().at(-1)).toEqual({ after: '100', limit: '100' });
  await waitFor(() => expect(placeholders()).toHaveLength(0));
  expect(trackingIds()).toContain('TRK-0100');
  log.mockRestore();
});

test('a failed count is only logged; the rows show, without a count', async () => {
  const log = jest.spyOn(console, 'error').mockImplementation(() => {});
  serve(records(3));
  api.on('GET api/devices/count/', [500, { detail: 'boom' }]);
  renderList();
  await loaded();
  await waitFor(() => expect(log).toHaveBeenCalledWith('Failed to fetch device records', expect.anything()));
  expect(rows()).toHaveLength(3);
  expect(screen.queryByTestId('record-count')).not.toBeInTheDocument();
  log.mockRestore();
});

test("a search the server counted only up to its cap shows the cap with a plus: '10000+ records'", async () => {
  serve(records(250));
  api.on('GET api/devices/count/', (request) =>
    params(request).q ? [200, { total: 10_000, more: true }] : [200, { total: 250 }],
  );
  renderList('/ListDevices?q=trk');
  await loaded();
  await waitFor(() => expect(count()).toHaveTextContent('10000+ records'));
  expect(count()).toHaveAttribute('data-count', '10000');
});
