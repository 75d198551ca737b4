import {
  MemoryRouter,
  provideModuleLoader,
  setComposition,
  useComposition,
  useLocation,
  useSession,
  VeritasToaster,
  type DeviceRecord,
  type Group,
  type Role,
  type ServerFeature,
} from '@veritas/shared';
import {
  FakeEventSource,
  makeRecord,
  mockApi,
  withFakeLiveStream,
  type MockApi,
  type MockReply,
  withQueryClient,
} from '@veritas/shared/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Dashboard from './dashboard';
import { PIE_RADIUS, pieRadius } from './dashboard-charts';

// jsdom has no canvas: each chart renders its data as JSON instead, with the canvas's role and name.
jest.mock('react-chartjs-2', () => {
  const fake = (kind: string) => (props: { data: unknown; 'aria-labelledby'?: string }) => (
    <pre data-chart={kind} role="img" aria-labelledby={props['aria-labelledby']}>
      {JSON.stringify(props.data)}
    </pre>
  );
  return { Line: fake('line'), Bar: fake('bar'), Pie: fake('pie') };
});

const today = new Date().toISOString();
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

const RECORDS: DeviceRecord[] = [
  makeRecord({ id: 1, tracking_id: { hub_code: 'BLR01', created_date: today } }),
  makeRecord({
    id: 2,
    tracking_id: { hub_code: 'BLR01', created_date: today },
    is_submit: true,
    submit_time: today,
    submitted_by: { username: 'wm_asha' },
    device_result: 'E004',
  }),
  makeRecord({
    id: 3,
    tracking_id: { hub_code: 'DEL02', created_date: daysAgo(10) },
    is_submit: true,
    submit_time: daysAgo(10),
    submitted_by: { username: 'wm_ravi' },
    is_verified: true,
    verify_time: daysAgo(9),
    device_result: 'passed',
  }),
  makeRecord({ id: 4, tracking_id: { hub_code: 'DEL02', created_date: daysAgo(20) } }),
];

const GROUPS: Group[] = [
  { name: 'BLR01', code: 'BLR01', organization: 'hub' },
  { name: 'Delhi-02', code: 'DEL02', organization: 'hub' },
  { name: 'RC-NORTH', code: 'RC-NORTH', organization: 'RC' },
];

let api: MockApi;
afterEach(() => api.restore());

function Location() {
  const { search } = useLocation();
  return <output data-testid="search">{search}</output>;
}

function renderDashboard({
  url = '/Dashboard',
  role = 'admin',
  hubCode = null,
  status = [200, RECORDS],
  groups = [200, GROUPS],
}: { url?: string; role?: Role; hubCode?: string | null; status?: MockReply; groups?: MockReply } = {}) {
  useSession.getState().setSession({ user: 'someone', role, hubCode });
  api = mockApi().on('GET api/get_status/', status).on('GET user/get_groups/', groups);
  return render(
    <MemoryRouter initialEntries={[url]}>
      <VeritasToaster />
      <Dashboard />
      <Location />
    </MemoryRouter>,
    { wrapper: withQueryClient() },
  );
}

const ready = () => waitFor(() => expect(document.querySelector('[data-state="ready"]')).toBeInTheDocument());
const tile = (id: string) => screen.getByTestId(`tile-${id}`).textContent;
const tiles = () => [tile('verified'), tile('rejection'), tile('pending')];
const search = () => new URLSearchParams(screen.getByTestId('search').textContent!);
const tableRows = (caption: string) =>
  within(screen.getByRole('table', { name: caption }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

/** What chart.js was given to draw, and the hidden table of the same chart: header row, then a row per day or slice. */
const chartData = (name: string) => JSON.parse(screen.getByRole('img', { name }).textContent!);
const figuresTable = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
const dayLabel = (daysBack: number) => {
  const day = new Date(Date.now() - daysBack * 86_400_000);
  return `${String(day.getMonth() + 1).padStart(2, '0')}/${String(day.getDate()).padStart(2, '0')}`;
};

async function choose(combobox: string, option: string) {
  await userEvent.click(await screen.findByRole('combobox', { name: combobox }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

test('shows a loading state, then the figures; both calls are made once, in parallel', async () => {
  renderDashboard();
  expect(screen.getByText('Loading dashboard…')).toHaveAttribute('role', 'status');
  expect(document.querySelector('[data-state="loading"]')).toBeInTheDocument();
  expect(api.requests.map((r) => r.url).sort()).toEqual(['api/get_status/', 'user/get_groups/']);
  await ready();
  expect(screen.queryByText('Loading dashboard…')).not.toBeInTheDocument();
  expect(tiles()).toEqual(['2', '50.00%', '2']);
  expect(tableRows('Top Five Rejection Hubs')).toEqual([
    ['BLR01', '1', '50.00%'],
    ['DEL02', '0', '0.00%'],
  ]);
  expect(tableRows('Top Five Rejecting Operators')).toEqual([
    ['wm_asha', '1', '100.00%'],
    ['wm_ravi', '0', '0.00%'],
  ]);
  // The name cell names its row, for a screen reader reading a figure (docs/screens.md#tables).
  expect(
    within(screen.getByRole('table', { name: 'Top Five Rejection Hubs' }))
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent),
  ).toEqual(['BLR01', 'DEL02']);
  for (const chart of ['chart-rejection-trend', 'chart-daily-volume', 'chart-error-distribution']) {
    expect(screen.getByTestId(chart).querySelector('[data-chart]')).toBeInTheDocument();
  }
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard · All Hubs');
});

test("without records: zero tiles, 'No data available' charts and tables, a 'No Inputs' pie", async () => {
  renderDashboard({ status: [200, []] });
  await ready();
  expect(tiles()).toEqual(['0', '0.00%', '0']);
  expect(screen.getByTestId('chart-rejection-trend')).toHaveTextContent('No data available');
  expect(screen.getByTestId('chart-daily-volume')).toHaveTextContent('No data available');
  expect(tableRows('Top Five Rejection Hubs')).toEqual([['No data available']]);
  expect(tableRows('Top Five Rejecting Operators')).toEqual([['No data available']]);
  const pie = JSON.parse(screen.getByTestId('chart-error-distribution').textContent!);
  expect(pie.labels).toEqual(['No Inputs']);
});

test("the pie's outer radius is 80 px, or half the chart's area where that is smaller: never cut off", () => {
  expect(pieRadius({ chart: { chartArea: { width: 420, height: 240 } } })).toBe(PIE_RADIUS);
  expect(PIE_RADIUS).toBe(80);
  expect(pieRadius({ chart: { chartArea: { width: 120, height: 240 } } })).toBe(60);
  expect(pieRadius({ chart: {} })).toBe(PIE_RADIUS);
});

test("a failed status call toasts the server's message; the page is still ready", async () => {
  renderDashboard({ status: [500, { detail: 'Status store unavailable' }] });
  expect(await screen.findByText('Status store unavailable')).toBeInTheDocument();
  await ready();
  expect(tiles()).toEqual(['0', '0.00%', '0']);
});

test("without a server message the toasts are 'Failed to fetch status' and 'Failed to fetch groups'", async () => {
  renderDashboard({ status: [502], groups: [500] });
  expect(await screen.findByText('Failed to fetch status')).toBeInTheDocument();
  expect(await screen.findByText('Failed to fetch groups')).toBeInTheDocument();
  await ready();
});

test("a groups answer that is not a list is an error: 'Failed to fetch groups'; the records still show", async () => {
  renderDashboard({ groups: [200, { groups: GROUPS }] });
  expect(await screen.findByText('Failed to fetch groups')).toBeInTheDocument();
  await ready();
  expect(tile('verified')).toBe('2');
});

test('hub options are All Hubs and the hub groups only, labelled by lower-cased name', async () => {
  renderDashboard();
  await ready();
  await userEvent.click(await screen.findByRole('combobox', { name: 'Hub' }));
  expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['All Hubs', 'blr01', 'delhi-02']);
});

test('choosing a timeframe updates the URL query and the figures', async () => {
  renderDashboard();
  await ready();
  await choose('Timeframe', 'Today');
  expect(search().get('timeframe')).toBe('today');
  expect(search().get('hub')).toBe('all');
  expect(tiles()).toEqual(['1', '100.00%', '1']);
});

test('choosing a hub updates the URL query, the title and the figures', async () => {
  renderDashboard();
  await ready();
  await choose('Hub', 'delhi-02');
  expect(search().get('hub')).toBe('DEL02');
  expect(search().get('timeframe')).toBe('last30');
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard · delhi-02');
  expect(tiles()).toEqual(['1', '0.00%', '1']);
});

test('an admin starts on All Hubs and Last 30 Days', async () => {
  renderDashboard({ role: 'admin', hubCode: 'BLR01' });
  await ready();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard · All Hubs');
  expect(await screen.findByRole('combobox', { name: 'Hub' })).toHaveValue('All Hubs');
  expect(screen.getByRole('combobox', { name: 'Timeframe' })).toHaveValue('Last 30 Days');
});

test("an executive of hub 'BLR01' starts on blr01", async () => {
  renderDashboard({ role: 'executive', hubCode: 'BLR01' });
  await ready();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard · blr01');
  expect(await screen.findByRole('combobox', { name: 'Hub' })).toHaveValue('blr01');
  expect(tiles()).toEqual(['1', '100.00%', '1']);
});

test('the URL query is read on load, its hub matched ignoring case', async () => {
  renderDashboard({ url: '/Dashboard?hub=del02&timeframe=last15', role: 'executive', hubCode: 'BLR01' });
  await ready();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard · delhi-02');
  expect(await screen.findByRole('combobox', { name: 'Hub' })).toHaveValue('delhi-02');
  expect(screen.getByRole('combobox', { name: 'Timeframe' })).toHaveValue('Last 15 Days');
  expect(tiles()).toEqual(['1', '0.00%', '0']);
});

test('a hub in the address that no hub group has gives way to the start hub, in the address too', async () => {
  renderDashboard({ url: '/Dashboard?hub=NOPE99&timeframe=last7', role: 'admin' });
  await ready();
  await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard · All Hubs'));
  expect(screen.getByRole('combobox', { name: 'Hub' })).toHaveValue('All Hubs');
  expect(search().get('hub')).toBe('all');
  expect(search().get('timeframe')).toBe('last7');
});

test('an unknown timeframe in the address gives way to Last 30 Days, in the address too; the hub stays', async () => {
  renderDashboard({ url: '/Dashboard?hub=DEL02&timeframe=LAST15', role: 'admin' });
  await ready();
  expect(screen.getByRole('combobox', { name: 'Timeframe' })).toHaveValue('Last 30 Days');
  await waitFor(() => expect(search().get('timeframe')).toBe('last30'));
  expect(search().get('hub')).toBe('DEL02');
});

test("a return centre's code is no hub choice: an executive of hub 'BLR01' is shown blr01", async () => {
  renderDashboard({ url: '/Dashboard?hub=rc-north', role: 'executive', hubCode: 'BLR01' });
  await ready();
  await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard · blr01'));
  expect(search().get('hub')).toBe('blr01');
  expect(tiles()).toEqual(['1', '100.00%', '1']);
});

test('while the groups have not answered (a failed call) the hub of the address is kept', async () => {
  renderDashboard({ url: '/Dashboard?hub=DEL02', groups: [500, { detail: 'down' }] });
  await ready();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard · DEL02');
  expect(search().get('hub')).toBe('DEL02');
});

test('each chart canvas is named by its title; a hidden table lists, per day, the figures its datasets hold', async () => {
  renderDashboard();
  await ready();
  for (const [name, series] of [
    ['Rejection Trend', ['Rejection at DoorStep', 'Rejections at Hub']],
    ['Daily Processed Volume', ['Verified at Doorstep', 'Verified at Hub']],
  ] as const) {
    const { labels, datasets } = chartData(name);
    const [head, ...rows] = figuresTable(name);
    expect(head).toEqual(['Day', ...series]);
    expect(labels).toHaveLength(30);
    expect(rows).toEqual(
      labels.map((day: string, i: number) => [day, ...datasets.map((d: { data: number[] }) => String(d.data[i]))]),
    );
  }
  // The figures themselves: record 2 was rejected (E004) at the doorstep today; record 3 was
  // submitted 10 days ago and verified at its hub 9 days ago, passed.
  const trend = figuresTable('Rejection Trend');
  expect(trend.at(-1)).toEqual([dayLabel(0), '1', '0']);
  expect(trend.slice(1, -1).every(([, doorstep, hub]) => doorstep === '0' && hub === '0')).toBe(true);
  const volume = figuresTable('Daily Processed Volume');
  expect(volume.at(-1)).toEqual([dayLabel(0), '1', '0']);
  expect(volume.find(([day]) => day === dayLabel(9))).toEqual([dayLabel(9), '0', '1']);
});

test('the Error Distribution canvas is named by its title; its hidden table lists each slice drawn with its count', async () => {
  renderDashboard();
  await ready();
  const pie = chartData('Error Distribution');
  expect(pie.labels).toEqual(['Passed', 'E004']);
  expect(figuresTable('Error Distribution')).toEqual([
    ['Result', 'Count'],
    ['Passed', String(pie.datasets[0].data[0])],
    ['E004: Device duplication detected.', String(pie.datasets[0].data[1])],
  ]);
  expect(pie.datasets[0].data).toEqual([1, 1]);
});

test("without records the daily charts have no canvas and no table; the 'No Inputs' pie's table says so", async () => {
  renderDashboard({ status: [200, []] });
  await ready();
  expect(screen.getAllByRole('img').map((img) => img.getAttribute('data-chart'))).toEqual(['pie']);
  expect(screen.queryByRole('table', { name: 'Rejection Trend' })).not.toBeInTheDocument();
  expect(screen.queryByRole('table', { name: 'Daily Processed Volume' })).not.toBeInTheDocument();
  expect(figuresTable('Error Distribution')).toEqual([['Result', 'Count'], ['No Inputs']]);
});

test("a top-five table wider than the screen scrolls in a focusable region named '<caption> table'; one that fits adds no tab stop", async () => {
  // jsdom has no layout: the hubs table's box says its content is wider than it is.
  const wide = (element: HTMLElement) =>
    element.classList.contains('db-table') && element.textContent!.startsWith('Top Five Rejection Hubs');
  jest.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return wide(this) ? 420 : 0;
  });
  jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return wide(this) ? 320 : 0;
  });
  try {
    renderDashboard();
    await ready();
    const region = screen.getByRole('region', { name: 'Top Five Rejection Hubs table' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(within(region).getByRole('table', { name: 'Top Five Rejection Hubs' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Top Five Rejecting Operators table' })).not.toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Top Five Rejecting Operators' }).parentElement).not.toHaveAttribute(
      'tabindex',
    );
  } finally {
    jest.restoreAllMocks();
  }
});

describe("with the server feature 'dashboard-figures'", () => {
  /** Figures as api/dashboard/ answers them; `verified` tells the timeframe asked for, so each answer is recognisable. */
  const VERIFIED = { today: 1, last7: 7, last15: 15, last30: 30 } as Record<string, number>;
  const figures = (timeframe: string) => ({
    verified: VERIFIED[timeframe],
    pending: 3,
    rejection: '28.57%',
    days: ['03/01', '03/02'],
    trend: { doorstep: [1, 1], hub: [0, 2], total: 4 },
    volume: { doorstep: [2, 3], hub: [1, 1], total: 7 },
    errors: [
      { key: 'passed', label: 'Passed', tooltip: 'Passed', color: '#1e8e3e', count: 5 },
      { key: 'E004', label: 'E004', tooltip: 'E004: Device duplication detected.', color: '#9c6500', count: 2 },
    ],
    topHubs: [{ name: 'BLR01', count: 2, percent: '28.57%' }],
    topOperators: [{ name: 'wm_asha', count: 2, percent: '40.00%' }],
  });
  const params = (request: { config: { params?: unknown } }) => request.config.params as Record<string, string>;

  function renderWithFigures({
    url = '/Dashboard',
    role = 'admin',
    hubCode = null,
    reply = (request) => [200, figures(params(request).timeframe!)],
  }: {
    url?: string;
    role?: Role;
    hubCode?: string | null;
    reply?: (request: { config: { params?: unknown } }) => MockReply | Promise<MockReply>;
  } = {}) {
    useSession.getState().setSession({ user: 'someone', role, hubCode, features: ['dashboard-figures'] });
    api = mockApi()
      .on('GET api/dashboard/', reply)
      .on('GET user/get_groups/', [200, GROUPS])
      .on('GET api/get_status/', [200, RECORDS]);
    return render(
      <MemoryRouter initialEntries={[url]}>
        <VeritasToaster />
        <Dashboard />
        <Location />
      </MemoryRouter>,
      { wrapper: withQueryClient() },
    );
  }

  afterEach(() => act(() => useSession.getState().clearSession()));

  /** A reply held until the test opens it. */
  function held(reply: MockReply) {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, reply: async () => (await opened, reply) };
  }

  test("the figures come from api/dashboard/ for the selection and the browser's time zone; api/get_status/ is never called", async () => {
    renderWithFigures();
    expect(screen.getByText('Loading dashboard…')).toHaveAttribute('role', 'status');
    await ready();
    expect(api.requestsTo('GET api/dashboard/').map(params)).toEqual([
      { hub: 'all', timeframe: 'last30', tz: Intl.DateTimeFormat().resolvedOptions().timeZone },
    ]);
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(0);
    expect(api.requestsTo('GET user/get_groups/')).toHaveLength(1);
    expect(tiles()).toEqual(['30', '28.57%', '3']);
    expect(tableRows('Top Five Rejection Hubs')).toEqual([['BLR01', '2', '28.57%']]);
    expect(tableRows('Top Five Rejecting Operators')).toEqual([['wm_asha', '2', '40.00%']]);
    expect(figuresTable('Rejection Trend')).toEqual([
      ['Day', 'Rejection at DoorStep', 'Rejections at Hub'],
      ['03/01', '1', '0'],
      ['03/02', '1', '2'],
    ]);
    expect(chartData('Error Distribution').labels).toEqual(['Passed', 'E004']);
  });

  test('the hub and timeframe of the address are sent; the hub choices still come from user/get_groups/', async () => {
    renderWithFigures({ url: '/Dashboard?hub=del02&timeframe=last15' });
    await ready();
    expect(api.requestsTo('GET api/dashboard/').map(params)[0]).toMatchObject({ hub: 'del02', timeframe: 'last15' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard · delhi-02');
    await userEvent.click(await screen.findByRole('combobox', { name: 'Hub' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['All Hubs', 'blr01', 'delhi-02']);
  });

  test("an executive's start hub is the hub asked for", async () => {
    renderWithFigures({ role: 'executive', hubCode: 'BLR01' });
    await ready();
    expect(api.requestsTo('GET api/dashboard/').map(params)[0]).toMatchObject({ hub: 'blr01', timeframe: 'last30' });
  });

  test('changing the selection asks for its figures; the previous ones stay, busy, until they arrive', async () => {
    const last7 = held([200, figures('last7')]);
    renderWithFigures({
      reply: (request) =>
        params(request).timeframe === 'last7' ? last7.reply() : [200, figures(params(request).timeframe!)],
    });
    await ready();
    await choose('Timeframe', 'Last 7 Days');
    await waitFor(() =>
      expect(api.requestsTo('GET api/dashboard/').map(params).at(-1)).toMatchObject({ hub: 'all', timeframe: 'last7' }),
    );
    expect(document.querySelector('[data-state="loading"]')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('Loading dashboard…')).not.toBeInTheDocument();
    expect(tiles()).toEqual(['30', '28.57%', '3']);
    last7.open();
    await ready();
    expect(tiles()).toEqual(['7', '28.57%', '3']);
    expect(search().get('timeframe')).toBe('last7');
  });

  test('an answer for an older selection arriving after the latest one is dropped', async () => {
    const today = held([200, figures('today')]);
    renderWithFigures({
      reply: (request) =>
        params(request).timeframe === 'today' ? today.reply() : [200, figures(params(request).timeframe!)],
    });
    await ready();
    await choose('Timeframe', 'Today');
    await choose('Timeframe', 'Last 15 Days');
    await ready();
    expect(tiles()).toEqual(['15', '28.57%', '3']);
    today.open();
    await act(async () => {});
    expect(tiles()).toEqual(['15', '28.57%', '3']);
    expect(api.requestsTo('GET api/dashboard/').map((r) => params(r).timeframe)).toEqual(['last30', 'today', 'last15']);
  });

  test("a failed figures call toasts the server's message; every figure is zero and the page is ready", async () => {
    renderWithFigures({ reply: () => [500, { detail: 'Figures unavailable' }] });
    expect(await screen.findByText('Figures unavailable')).toBeInTheDocument();
    await ready();
    expect(tiles()).toEqual(['0', '0.00%', '0']);
    expect(tableRows('Top Five Rejection Hubs')).toEqual([['No data available']]);
  });

  test("an answer that is not the dashboard figures is an error: 'Failed to fetch status'", async () => {
    renderWithFigures({ reply: () => [200, RECORDS] });
    expect(await screen.findByText('Failed to fetch status')).toBeInTheDocument();
    await ready();
    expect(tiles()).toEqual(['0', '0.00%', '0']);
  });
});

describe('live figures (docs/dashboard.md#live-figures)', () => {
  let eventId = 0;

  withFakeLiveStream();
  /** Signed in with these features: the stream opens. */
  function start(features: ServerFeature[]) {
    act(() => useSession.getState().setSession({ user: 'someone', role: 'admin', hubCode: null, features }));
    act(() => FakeEventSource.latest!.open());
  }
  afterEach(() => jest.useRealTimers());

  function send(type: string, data: unknown) {
    act(() => FakeEventSource.latest!.emit(type, data, ++eventId));
  }
  const scanned = { action: 'submitted', records: [makeRecord({ id: 1 })] };

  /** Figures as api/dashboard/ answers them, recognisable by `verified`. */
  const figures = (verified: number) => ({
    verified,
    pending: 0,
    rejection: '0.00%',
    days: [],
    trend: { doorstep: [], hub: [], total: 0 },
    volume: { doorstep: [], hub: [], total: 0 },
    errors: [],
    topHubs: [],
    topOperators: [],
  });

  /** api/dashboard/ answers as many verified as calls made so far. */
  function renderLive() {
    api = mockApi()
      .on('GET api/dashboard/', () => [200, figures(api.requestsTo('GET api/dashboard/').length)])
      .on('GET user/get_groups/', [200, GROUPS]);
    return render(
      <MemoryRouter initialEntries={['/Dashboard?hub=blr01&timeframe=last7']}>
        <VeritasToaster />
        <Dashboard />
      </MemoryRouter>,
      { wrapper: withQueryClient() },
    );
  }
  const figureCalls = () => api.requestsTo('GET api/dashboard/').map((r) => r.config.params as Record<string, string>);

  test("from the server: a change of records asks the selection's figures again; the figures shown stay meanwhile, no loading state", async () => {
    start(['dashboard-figures', 'live-events']);
    let open!: () => void;
    renderLive();
    await ready();
    expect(tile('verified')).toBe('1');
    api.on('GET api/dashboard/', () => new Promise<MockReply>((resolve) => (open = () => resolve([200, figures(9)]))));
    send('records', scanned);
    expect(figureCalls()).toHaveLength(2);
    expect(figureCalls()[1]).toEqual(figureCalls()[0]);
    expect(figureCalls()[1]).toMatchObject({ hub: 'blr01', timeframe: 'last7' });
    expect(document.querySelector('[data-state="ready"]')).not.toHaveAttribute('aria-busy');
    expect(tile('verified')).toBe('1');
    await act(async () => open());
    await waitFor(() => expect(tile('verified')).toBe('9'));
  });

  test('from the server: at most one call a second, the last change followed by one', async () => {
    jest.useFakeTimers();
    start(['dashboard-figures', 'live-events']);
    renderLive();
    await ready();
    for (let i = 0; i < 5; i++) send('records', scanned);
    expect(figureCalls()).toHaveLength(2);
    await act(() => jest.advanceTimersByTimeAsync(999));
    expect(figureCalls()).toHaveLength(2);
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(figureCalls()).toHaveLength(3);
    await waitFor(() => expect(tile('verified')).toBe('3'));
    await act(() => jest.advanceTimersByTimeAsync(10_000));
    expect(figureCalls()).toHaveLength(3);
    send('reset', {});
    expect(figureCalls()).toHaveLength(4);
  });

  test('a failed live call is only logged: no toast, the figures stay', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    start(['dashboard-figures', 'live-events']);
    renderLive();
    await ready();
    api.on('GET api/dashboard/', [500, { detail: 'Live figures unavailable' }]);
    send('records', scanned);
    await waitFor(() => expect(log).toHaveBeenCalledWith('A live reload of the dashboard failed', expect.anything()));
    expect(screen.queryByText('Live figures unavailable')).not.toBeInTheDocument();
    expect(tile('verified')).toBe('1');
    log.mockRestore();
  });

  test("counted in the page: the events' records are put in the records and the figures counted again, at most once a second", async () => {
    jest.useFakeTimers();
    renderDashboard();
    start(['live-events']);
    await ready();
    expect(tiles()).toEqual(['2', '50.00%', '2']);
    const verifiedNow = (record: DeviceRecord, result: string) => ({
      ...record,
      is_submit: true,
      submit_time: today,
      submitted_by: { username: 'wm_ravi' },
      is_verified: true,
      verify_time: today,
      device_result: result,
    });
    send('records', { action: 'verified', records: [verifiedNow(RECORDS[0]!, 'passed')] });
    // The query cache tells the page on its next tick.
    await act(() => jest.advanceTimersByTimeAsync(0));
    expect(tiles()).toEqual(['3', '33.33%', '1']);
    send('records', { action: 'verified', records: [verifiedNow(RECORDS[3]!, 'E004')] });
    await act(() => jest.advanceTimersByTimeAsync(999));
    expect(tiles()).toEqual(['3', '33.33%', '1']);
    await act(() => jest.advanceTimersByTimeAsync(1));
    // The query cache tells the page on the timer tick after.
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(tiles()).toEqual(['4', '50.00%', '0']);
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(1);
  });

  test('a group created fetches the hub choices again', async () => {
    start(['dashboard-figures', 'live-events']);
    renderLive();
    await ready();
    send('groups', { action: 'created', name: 'HYD04', code: 'HYD04', organization: 'hub' });
    await waitFor(() => expect(api.requestsTo('GET user/get_groups/')).toHaveLength(2));
  });
});

describe("other remotes' tiles (slot dashboard.tile)", () => {
  /** The console's composition with the tiles of the remote `returns`, whose modules load as `modules` say. */
  function compose(entry: string, modules: Record<string, Promise<unknown>>) {
    provideModuleLoader((_remote, module) => modules[module] ?? Promise.reject(new Error(`${module} not exposed`)));
    setComposition({
      viewer: 'someone',
      remotes: { returns: { entry } },
      pages: [],
      menus: [],
      extensions: Object.keys(modules).map((module) => ({ slot: 'dashboard.tile', remote: 'returns', module })),
      unavailable: [],
      home: 'Dashboard',
      features: [],
    });
  }

  function ReturnsTile({ hub, timeframe }: { hub: string; timeframe: string }) {
    return <p className="vx-card">{`Returns for ${hub}, ${timeframe}`}</p>;
  }

  function Broken(): never {
    throw new Error('broken on purpose');
  }

  afterEach(() => act(() => useComposition.setState({ composition: null, loadModule: null })));

  test('follow the own tiles with the selected hub and timeframe; one that throws leaves the Dashboard working', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    compose('http://127.0.0.1/returns/1/mf-manifest.json', {
      './Broken': Promise.resolve({ default: Broken }),
      './ReturnsTile': Promise.resolve({ default: ReturnsTile }),
    });
    renderDashboard({ url: '/Dashboard?hub=BLR01&timeframe=last7' });
    await ready();

    const contributed = await screen.findByText('Returns for BLR01, last7');
    expect(screen.getByTestId('tile-pending').closest('.db-tiles')).toContainElement(contributed);
    expect(tiles()).toEqual(['1', '100.00%', '1']);
    log.mockRestore();
  });

  test('a tile still loading shows nothing and holds nothing back: the figures are ready without it', async () => {
    compose('http://127.0.0.1/returns/2/mf-manifest.json', { './ReturnsTile': new Promise(() => {}) });
    renderDashboard();
    await ready();
    expect(tiles()).toEqual(['2', '50.00%', '2']);
    expect(screen.queryByText(/^Returns for/)).not.toBeInTheDocument();
  });
});
