// The Cases queue (route /Cases) against a mock api/cases/ that filters and pages by due time as
// the server does: filters in the URL, rows, paging, the count, live changes, saved views, bulk
// jobs, the export and failures.
import {
  MemoryRouter,
  VeritasToaster,
  toast,
  useLocation,
  useNavigate,
  useSession,
  type CaseSummary,
  type CaseView,
  type Role,
} from '@veritas/shared';
import { mockApi, withQueryClient, type MockApi, type MockReply, type RecordedRequest } from '@veritas/shared/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CASE_PAGE_SIZE } from './api/cases';
import CasesPage, { TITLE } from './cases-page';

const FUTURE = Date.UTC(2099, 0, 1);
const PAST = Date.UTC(2020, 0, 1);

/** Case `id`: the lower, the sooner due; open, in queue HUB1, unassigned, due in the future. */
function caseOf(id: number, change: Partial<CaseSummary> = {}): CaseSummary {
  return {
    id,
    tracking_id: `TID${String(id).padStart(5, '0')}`,
    reason: 'E004',
    state: 'open',
    disposition: null,
    queue: 'HUB1',
    assignee: null,
    due_at: new Date(FUTURE + id * 60_000).toISOString(),
    opened_at: new Date(PAST + id * 60_000).toISOString(),
    resolved_at: null,
    version: 1,
    ...change,
  };
}
const casesOf = (n: number) => Array.from({ length: n }, (_, i) => caseOf(i + 1));

let api: MockApi;
let all: CaseSummary[];
let views: CaseView[];

type Params = Record<string, string | number | undefined>;
const params = (request: RecordedRequest) => (request.config.params ?? {}) as Params;
const pageCalls = () => api.requestsTo('GET api/cases/').map(params);
const countCalls = () => api.requestsTo('GET api/cases/count/').map(params);

/** The server's filters (the signed-in user is asha). */
function matching(p: Params): CaseSummary[] {
  const state = p.state ?? 'active';
  return all
    .filter(
      (c) =>
        (!p.reason || c.reason === p.reason) &&
        (state === 'all' || (state === 'active' ? c.state !== 'resolved' : c.state === state)) &&
        (!p.queue || c.queue === p.queue) &&
        (!p.assignee ||
          (p.assignee === 'none' ? c.assignee === null : c.assignee === (p.assignee === 'me' ? 'asha' : p.assignee))) &&
        (p.overdue !== '1' || (c.state !== 'resolved' && Date.parse(c.due_at) < Date.now())),
    )
    .sort((a, b) => a.due_at.localeCompare(b.due_at) || a.id - b.id);
}

/** api/cases/: a page after the cursor `due_at~id`, `next` the last row's cursor while more follow. */
function answerPage(request: RecordedRequest): MockReply {
  const p = params(request);
  let rows = matching(p);
  if (p.after) {
    const [due, id] = String(p.after).split('~');
    rows = rows.filter((c) => c.due_at > due! || (c.due_at === due && c.id > Number(id)));
  }
  const page = rows.slice(0, Number(p.limit));
  const last = page[page.length - 1];
  return [200, { cases: page, next: rows.length > page.length && last ? `${last.due_at}~${last.id}` : null }];
}

/** The incharges of each queue; ops_a (central_ops) works every queue. */
const INCHARGES: Record<string, string> = { HUB1: 'ravi', HUB2: 'mira' };

/** api/cases/assignees/: the users who may work every queue named (codes separated by commas). */
function answerAssignees(request: RecordedRequest): MockReply {
  const queues = String(params(request).queue ?? '')
    .split(',')
    .filter(Boolean);
  if (queues.length === 0) return [400, { detail: 'queue is required.', field: 'queue' }];
  const incharges = Object.entries(INCHARGES)
    .filter(([queue]) => queues.every((named) => named === queue))
    .map(([, username]) => ({ username, role: 'incharge' }));
  return [200, { users: [...incharges, { username: 'ops_a', role: 'central_ops' }] }];
}
const assigneeCalls = () => api.requestsTo('GET api/cases/assignees/').map(params);

function serve(initial: CaseSummary[], handlers: Record<string, (request: RecordedRequest) => MockReply> = {}) {
  all = initial;
  views = [];
  api = mockApi()
    .on('GET api/cases/', handlers.pages ?? answerPage)
    .on('GET api/cases/count/', handlers.count ?? ((r) => [200, { total: matching(params(r)).length, capped: false }]))
    .on('GET api/cases/views/', () => [200, { views }])
    .on('GET api/cases/assignees/', answerAssignees);
}

function Location() {
  const { search } = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output data-testid="search">{search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Browser back
      </button>
    </>
  );
}

function renderPage(url = '/Cases') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <CasesPage />
      <Location />
      <VeritasToaster />
    </MemoryRouter>,
    { wrapper: withQueryClient() },
  );
}

function signIn(role: Role, hubCode: string | null = null) {
  act(() => useSession.getState().setSession({ user: 'asha', role, hubCode }));
}

const search = () => Object.fromEntries(new URLSearchParams(screen.getByTestId('search').textContent ?? ''));
const table = () => screen.getByRole('table', { name: 'Cases by due time' });
const rowOf = (id: number) => table().querySelector<HTMLElement>(`tr[data-id="${id}"]`);
const shownIds = () => [...table().querySelectorAll<HTMLElement>('tr[data-id]')].map((tr) => Number(tr.dataset.id));
const loaded = () => waitFor(() => expect(screen.queryByText('Loading cases…')).not.toBeInTheDocument());

async function choose(label: string, option: string) {
  await userEvent.click(await screen.findByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

/** Delivers a live `cases` message to the page's subscription (what the stream hands its subscribers). */
function live(message: { type: 'cases'; data: { action: string; case: CaseSummary } } | { type: 'reset' }) {
  const registry = (globalThis as unknown as Record<symbol, { handlers: Map<string, Set<(m: unknown) => void>> }>)[
    Symbol.for('veritas.liveEvents')
  ];
  act(() => {
    for (const handler of [...(registry?.handlers.get('cases') ?? [])]) handler(message);
  });
}

beforeEach(() => {
  signIn('incharge');
  act(() => toast.remove());
});
afterEach(() => {
  api.restore();
  act(() => useSession.getState().clearSession());
});

describe('the table', () => {
  test('the page is named by its heading', async () => {
    serve([]);
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: TITLE })).toBeInTheDocument();
    await loaded();
  });

  test('rows in the server order (by due time): #id linking to /Case?id=, tracking ID, reason with its title, state, queue, assignee, due', async () => {
    serve([caseOf(2, { assignee: 'ravi', state: 'in_review', reason: 'E008', queue: 'RC9' }), caseOf(1)]);
    renderPage();
    expect(screen.getByText('Loading cases…')).toBeInTheDocument();
    await loaded();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', 'Case', 'Tracking ID', 'Reason', 'State', 'Queue', 'Assignee', 'Due']);
    expect(shownIds()).toEqual([1, 2]);
    const link = within(rowOf(2)!).getByRole('link', { name: '#2' });
    expect(link).toHaveAttribute('href', '/Case?id=2');
    expect(within(rowOf(2)!).getByRole('rowheader')).toContainElement(link);
    const cells = (id: number) =>
      within(rowOf(id)!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(2).slice(1)).toEqual([
      'TID00002',
      'E008 · Device Mismatch detected.',
      'In review',
      'RC9',
      'ravi',
      expect.stringMatching(/^\d\d\/\d\d\/2099, \d\d:\d\d [AP]M$/),
    ]);
    expect(cells(1)[5]).toBe('Unassigned');
    expect(rowOf(1)!.querySelector('time')).toHaveAttribute('dateTime', caseOf(1).due_at);
    expect(pageCalls()).toEqual([{ limit: CASE_PAGE_SIZE }]);
  });

  test('a resolved case shows its disposition; Overdue is written out for unresolved cases past due only', async () => {
    serve([
      caseOf(1, { due_at: new Date(PAST).toISOString() }),
      caseOf(2, { due_at: new Date(PAST + 1000).toISOString(), state: 'resolved', disposition: 'returned_to_vendor' }),
      caseOf(3),
    ]);
    renderPage('/Cases?state=all');
    await loaded();
    expect(within(rowOf(1)!).getByText('Overdue')).toBeInTheDocument();
    expect(within(rowOf(2)!).queryByText('Overdue')).not.toBeInTheDocument();
    expect(within(rowOf(2)!).getByText('Resolved · Returned to vendor')).toBeInTheDocument();
    expect(within(rowOf(3)!).queryByText('Overdue')).not.toBeInTheDocument();
  });

  test('the count line says "N cases" from api/cases/count/, "at least N cases" when capped', async () => {
    serve(casesOf(3));
    const { unmount } = renderPage('/Cases?reason=E004');
    expect(await screen.findByText('3 cases')).toBeInTheDocument();
    expect(countCalls()).toEqual([{ reason: 'E004' }]);
    unmount();
    api.restore();
    serve(casesOf(1), { count: () => [200, { total: 100000, capped: true }] });
    renderPage();
    expect(await screen.findByText('at least 100,000 cases')).toBeInTheDocument();
  });

  test('no case: the empty state', async () => {
    serve([]);
    renderPage();
    expect(await screen.findByText('No cases match these filters.')).toBeInTheDocument();
    expect(await screen.findByText('0 cases')).toBeInTheDocument();
  });
});

describe('filters in the URL', () => {
  test('a URL with filters shows them in the form and asks api/cases/ and its count for them', async () => {
    serve([caseOf(1, { reason: 'E005', assignee: 'asha', due_at: new Date(PAST).toISOString() }), caseOf(2)]);
    renderPage('/Cases?reason=E005&state=open&queue=HUB1&assignee=me&overdue=1&from=2026-01-01&to=2026-02-01');
    await loaded();
    expect(await screen.findByRole('combobox', { name: 'Reason' })).toHaveValue('E005 · Fraudulent device detected.');
    expect(screen.getByRole('combobox', { name: 'State' })).toHaveValue('Open');
    expect(screen.getByRole('textbox', { name: 'Queue' })).toHaveValue('HUB1');
    expect(screen.getByRole('combobox', { name: 'Assignee' })).toHaveValue('Me');
    expect(screen.getByRole('checkbox', { name: 'Overdue only' })).toBeChecked();
    expect(screen.getByLabelText('Opened from')).toHaveValue('2026-01-01');
    expect(screen.getByLabelText('Opened to')).toHaveValue('2026-02-01');
    const filters = {
      reason: 'E005',
      state: 'open',
      queue: 'HUB1',
      assignee: 'me',
      overdue: '1',
      from: '2026-01-01',
      to: '2026-02-01',
    };
    expect(pageCalls()).toEqual([{ ...filters, limit: CASE_PAGE_SIZE }]);
    expect(countCalls()).toEqual([filters]);
    expect(shownIds()).toEqual([1]);
  });

  test('values the page would not offer are left out; the state defaults to Active', async () => {
    serve(casesOf(1));
    renderPage('/Cases?reason=E001&state=lost&overdue=yes&from=2026-02-31');
    await loaded();
    expect(await screen.findByRole('combobox', { name: 'State' })).toHaveValue('Active (open and in review)');
    expect(pageCalls()).toEqual([{ limit: CASE_PAGE_SIZE }]);
  });

  test('a dropdown, the Overdue only checkbox or a day applies at once and writes the URL', async () => {
    serve(casesOf(2));
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await choose('Reason', 'E006 · Brand Mismatch..');
    await waitFor(() => expect(search()).toEqual({ reason: 'E006' }));
    await choose('State', 'Resolved');
    await waitFor(() => expect(search()).toEqual({ reason: 'E006', state: 'resolved' }));
    await user.click(screen.getByRole('checkbox', { name: 'Overdue only' }));
    await waitFor(() => expect(search()).toMatchObject({ overdue: '1' }));
    await user.type(screen.getByLabelText('Opened from'), '2026-03-01');
    await waitFor(() => expect(search()).toMatchObject({ from: '2026-03-01' }));
    expect(pageCalls().at(-1)).toEqual({
      reason: 'E006',
      state: 'resolved',
      overdue: '1',
      from: '2026-03-01',
      limit: CASE_PAGE_SIZE,
    });
    await choose('State', 'Active (open and in review)');
    await waitFor(() => expect(search()).toEqual({ reason: 'E006', overdue: '1', from: '2026-03-01' }));
  });

  test('Queue applies on Apply or Enter, not while typing', async () => {
    serve([caseOf(1), caseOf(2, { queue: 'RC7' })]);
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.type(screen.getByRole('textbox', { name: 'Queue' }), ' RC7 ');
    expect(pageCalls()).toHaveLength(1);
    expect(screen.getByText('Press Apply to filter by the text typed.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(shownIds()).toEqual([2]));
    expect(search()).toEqual({ queue: 'RC7' });
    await user.clear(screen.getByRole('textbox', { name: 'Queue' }));
    await user.type(screen.getByRole('textbox', { name: 'Queue' }), 'HUB1{Enter}');
    await waitFor(() => expect(search()).toEqual({ queue: 'HUB1' }));
  });

  test('Assignee: Me and Unassigned apply at once; "A user…" filters by the username typed', async () => {
    serve([caseOf(1), caseOf(2, { assignee: 'asha' }), caseOf(3, { assignee: 'ravi' })]);
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await choose('Assignee', 'Me');
    await waitFor(() => expect(shownIds()).toEqual([2]));
    expect(search()).toEqual({ assignee: 'me' });
    await choose('Assignee', 'Unassigned');
    await waitFor(() => expect(shownIds()).toEqual([1]));
    expect(search()).toEqual({ assignee: 'none' });
    await choose('Assignee', 'A user…');
    await user.type(screen.getByRole('textbox', { name: 'Assignee’s username' }), 'ravi{Enter}');
    await waitFor(() => expect(shownIds()).toEqual([3]));
    expect(search()).toEqual({ assignee: 'ravi' });
    expect(screen.getByRole('combobox', { name: 'Assignee' })).toHaveValue('A user…');
  });

  test('each filter applied is an entry of the history: Back returns to the filters before', async () => {
    serve(casesOf(2));
    const user = userEvent.setup();
    renderPage('/Cases?queue=HUB1');
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Overdue only' }));
    await waitFor(() => expect(search()).toEqual({ queue: 'HUB1', overdue: '1' }));
    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() => expect(search()).toEqual({ queue: 'HUB1' }));
    expect(screen.getByRole('checkbox', { name: 'Overdue only' })).not.toBeChecked();
  });

  test('Clear filters empties the form and the URL', async () => {
    serve(casesOf(2));
    const user = userEvent.setup();
    renderPage('/Cases?queue=HUB1&overdue=1&state=all');
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(search()).toEqual({}));
    expect(screen.getByRole('textbox', { name: 'Queue' })).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Overdue only' })).not.toBeChecked();
    expect(pageCalls().at(-1)).toEqual({ limit: CASE_PAGE_SIZE });
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeDisabled();
  });

  test('Export CSV links api/cases/export/ with the filters shown, as a download', async () => {
    serve(casesOf(1));
    renderPage('/Cases?reason=E007&assignee=none&to=2026-05-01');
    await loaded();
    const link = screen.getByRole('link', { name: 'Export CSV' });
    expect(link).toHaveAttribute('download');
    const href = new URL(link.getAttribute('href')!, 'http://console.test');
    expect(href.pathname).toBe('/veritas/api/cases/export/');
    expect(Object.fromEntries(href.searchParams)).toEqual({ reason: 'E007', assignee: 'none', to: '2026-05-01' });
  });
});

describe('paging', () => {
  test('Load more reads the page after `next` until there is none', async () => {
    serve(casesOf(120));
    const user = userEvent.setup();
    renderPage();
    await loaded();
    expect(shownIds()).toHaveLength(50);
    const more = screen.getByRole('button', { name: 'Load more' });
    await user.click(more);
    await waitFor(() => expect(shownIds()).toHaveLength(100));
    await user.click(more);
    await waitFor(() => expect(shownIds()).toHaveLength(120));
    expect(shownIds().at(-1)).toBe(120);
    expect(pageCalls().map((p) => p.after)).toEqual([
      undefined,
      `${caseOf(50).due_at}~50`,
      `${caseOf(100).due_at}~100`,
    ]);
    expect(more).toHaveTextContent('All cases loaded');
    expect(more).toHaveAttribute('aria-disabled', 'true');
    await user.click(more);
    expect(pageCalls()).toHaveLength(3);
  });

  test('a next page that fails says so and keeps the rows; Load more asks again', async () => {
    serve(casesOf(60), {
      pages: (request) =>
        params(request).after && pageCalls().length === 2
          ? [503, { detail: 'The database is busy.' }]
          : answerPage(request),
    });
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is busy.');
    expect(shownIds()).toHaveLength(50);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(shownIds()).toHaveLength(60));
  });
});

describe('failures', () => {
  test('a failed load shows its message and Retry, never stuck loading; Retry loads the cases', async () => {
    let fail = true;
    serve(casesOf(2), {
      pages: (request) => (fail ? [500, { detail: 'Internal server error' }] : answerPage(request)),
    });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal server error');
    expect(screen.queryByText('Loading cases…')).not.toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(shownIds()).toEqual([1, 2]));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('Retry asks the count again too: a count that failed with the queue is shown once both work again', async () => {
    let fail = true;
    serve(casesOf(2), {
      pages: (request) => (fail ? [500, { detail: 'Internal server error' }] : answerPage(request)),
      count: (request) =>
        fail
          ? [500, { detail: 'Internal server error' }]
          : [200, { total: matching(params(request)).length, capped: false }],
    });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal server error');
    expect(await screen.findByText('The cases could not be counted.')).toBeInTheDocument();
    fail = false;
    const counted = countCalls().length;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(shownIds()).toEqual([1, 2]));
    expect(await screen.findByText('2 cases')).toBeInTheDocument();
    expect(screen.queryByText('The cases could not be counted.')).not.toBeInTheDocument();
    expect(countCalls()).toHaveLength(counted + 1);
  });

  test('no answer at all: the fallback message', async () => {
    serve([], { pages: () => [0, undefined] });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load the cases');
  });

  test('a failed count says the cases could not be counted', async () => {
    serve(casesOf(1), { count: () => [500, { detail: 'boom' }] });
    renderPage();
    expect(await screen.findByText('The cases could not be counted.')).toHaveAttribute('aria-live', 'polite');
  });
});

describe('live changes', () => {
  test('a live cases event invalidates the queue: a new case shows without a reload, and the count with it, unannounced', async () => {
    serve(casesOf(2));
    renderPage();
    await loaded();
    expect(await screen.findByText('2 cases')).toHaveAttribute('aria-live', 'polite');
    const added = caseOf(0, { reason: 'E003' });
    all = [added, ...all];
    live({ type: 'cases', data: { action: 'opened', case: added } });
    await waitFor(() => expect(shownIds()).toEqual([0, 1, 2]));
    // A screen reader announces the count a filter gives, not each change live updates make to it.
    expect(await screen.findByText('3 cases')).toHaveAttribute('aria-live', 'off');
    expect(pageCalls()).toHaveLength(2);
    await userEvent.type(screen.getByRole('textbox', { name: 'Queue' }), 'RC7{Enter}');
    expect(await screen.findByText('0 cases')).toHaveAttribute('aria-live', 'polite');
  });

  test('a burst of live events is throttled: one reading at once, one more at the end of the burst', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      serve(casesOf(2));
      renderPage();
      await loaded();
      for (let i = 0; i < 5; i++) live({ type: 'cases', data: { action: 'updated', case: caseOf(1) } });
      await waitFor(() => expect(pageCalls()).toHaveLength(2));
      await act(() => jest.advanceTimersByTimeAsync(1500));
      await waitFor(() => expect(pageCalls()).toHaveLength(3));
      await act(() => jest.advanceTimersByTimeAsync(3000));
      expect(pageCalls()).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });

  test('a reset reads the queue and the views again', async () => {
    serve(casesOf(1));
    renderPage();
    await loaded();
    const viewCalls = api.requestsTo('GET api/cases/views/').length;
    all = casesOf(3);
    live({ type: 'reset' });
    await waitFor(() => expect(shownIds()).toEqual([1, 2, 3]));
    expect(api.requestsTo('GET api/cases/views/').length).toBe(viewCalls + 1);
  });
});

describe('saved views', () => {
  const view = (id: number, change: Partial<CaseView> = {}): CaseView => ({
    id,
    name: `View ${id}`,
    owner: 'asha',
    filters: {},
    shared_with: null,
    ...change,
  });

  test('Views lists the own views and those shared with the role; choosing one applies its filters to the URL', async () => {
    serve([caseOf(1), caseOf(2, { reason: 'E008', queue: 'RC9' })]);
    views = [
      view(1, { name: 'Mine', filters: { queue: 'RC9', reason: 'E008', overdue: '' } }),
      view(2, { name: 'Hub duty', owner: 'boss', shared_with: 'incharge', filters: { state: 'all' } }),
    ];
    renderPage();
    await loaded();
    await userEvent.click(await screen.findByRole('combobox', { name: 'Views' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Mine',
      'Hub duty (shared with incharge)',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'Mine' }));
    await waitFor(() => expect(search()).toEqual({ reason: 'E008', queue: 'RC9' }));
    await waitFor(() => expect(shownIds()).toEqual([2]));
    expect(screen.getByRole('combobox', { name: 'Views' })).toHaveValue('Mine');
    expect(screen.getByRole('button', { name: 'Delete view Mine' })).toBeInTheDocument();

    await choose('Views', 'Hub duty (shared with incharge)');
    await waitFor(() => expect(search()).toEqual({ state: 'all' }));
    // Not one's own: no Delete.
    expect(screen.queryByRole('button', { name: /^Delete view/ })).not.toBeInTheDocument();
  });

  test('Save view posts the name, the filters shown (without empty ones) and the role shared with, then lists it', async () => {
    serve(casesOf(1));
    api.on('POST api/cases/views/', (request) => {
      const created = { id: 9, owner: 'asha', ...(request.body as Omit<CaseView, 'id' | 'owner'>) };
      views = [...views, created];
      return [200, created];
    });
    const user = userEvent.setup();
    renderPage('/Cases?queue=HUB1&overdue=1');
    await loaded();
    const toggle = screen.getByRole('button', { name: 'Save view' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const form = screen.getByRole('form', { name: 'Save view' });
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('Name the view.')).toBeInTheDocument();
    // The field to correct takes the cursor, its message read with it.
    await waitFor(() => expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveFocus());
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Name the view.');
    expect(api.requestsTo('POST api/cases/views/')).toHaveLength(0);

    await user.type(within(form).getByRole('textbox', { name: 'Name' }), ' Hub one overdue ');
    await choose('Share with', 'central_ops');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/views/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/views/')[0]!.body).toEqual({
      name: 'Hub one overdue',
      filters: { queue: 'HUB1', overdue: '1' },
      shared_with: 'central_ops',
    });
    expect(await screen.findByText('View “Hub one overdue” saved.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Views' })).toHaveValue('Hub one overdue (shared with central_ops)'),
    );
    expect(screen.queryByRole('form', { name: 'Save view' })).not.toBeInTheDocument();
    // The form gone, the keyboard's focus is back on the button that opened it.
    expect(toggle).toHaveFocus();
  });

  test('a refused save toasts the server’s message and keeps the form', async () => {
    serve(casesOf(1));
    api.on('POST api/cases/views/', [400, { detail: 'A view’s name is at most 80 characters.' }]);
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'x{Enter}');
    expect(await screen.findByText('A view’s name is at most 80 characters.')).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Save view' })).toBeInTheDocument();
  });

  test('Delete view deletes one’s own view chosen and lists the views again', async () => {
    serve(casesOf(1));
    views = [view(4, { name: 'Old', filters: { reason: 'E003' } })];
    api.on('POST api/cases/views/4/delete/', () => {
      views = [];
      return [200, {}];
    });
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await choose('Views', 'Old');
    await user.click(await screen.findByRole('button', { name: 'Delete view Old' }));
    expect(await screen.findByText('View “Old” deleted.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Views' })).toHaveAttribute('placeholder', 'No saved views'),
    );
    // Its Delete view gone with it, the keyboard's focus is on the Views choice.
    expect(screen.getByRole('combobox', { name: 'Views' })).toHaveFocus();
  });
});

describe('bulk actions', () => {
  test('roles that may not run jobs see no checkboxes and no bulk actions', async () => {
    signIn('executive');
    serve(casesOf(2));
    renderPage();
    await loaded();
    expect(within(table()).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Case', 'Tracking ID', 'Reason', 'State', 'Queue', 'Assignee', 'Due']);
  });

  test('ticking rows shows "N selected"; the header box selects every case shown; Assign to… starts a job with the ids', async () => {
    serve(casesOf(3));
    api.on('POST api/cases/jobs/', [
      200,
      { id: 7, action: 'assign', state: 'running', total: 3, done: 0, skipped: 0, created_at: '', finished_at: null },
    ]);
    api.on('GET api/cases/jobs/7/', [
      200,
      { id: 7, action: 'assign', state: 'done', total: 3, done: 3, skipped: 0, created_at: '', finished_at: '' },
    ]);
    const user = userEvent.setup();
    renderPage();
    await loaded();
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select case #2' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('1 selected')).toBeInTheDocument();
    const all = screen.getByRole('checkbox', { name: 'Select every case shown' });
    expect(all).toHaveProperty('indeterminate', true);
    await user.click(all);
    expect(within(bar).getByText('3 selected')).toBeInTheDocument();
    expect(all).toBeChecked();

    await user.click(within(bar).getByRole('button', { name: 'Assign to…' }));
    const form = within(bar).getByRole('form', { name: 'Assign cases' });
    // The ticked cases are of queue HUB1: its users are offered.
    const choice = await within(form).findByRole('combobox', { name: 'Assign to' });
    await user.click(within(form).getByRole('button', { name: 'Start' }));
    expect(within(form).getByText('Choose whom to assign the cases to.')).toBeInTheDocument();
    expect(choice).toHaveFocus();
    await choose('Assign to', 'ravi (incharge)');
    expect(assigneeCalls()).toEqual([{ queue: 'HUB1' }]);
    await user.click(within(form).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/jobs/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/jobs/')[0]!.body).toEqual({
      action: 'assign',
      ids: [2, 1, 3],
      assignee: 'ravi',
    });
    expect(await screen.findByText('Assigned 3 cases.')).toBeInTheDocument();
  });

  test('with a Queue filter, Assign to… offers the users of that queue and Unassigned', async () => {
    serve(casesOf(1));
    api.on('GET api/cases/assignees/', [200, { users: [{ username: 'ravi', role: 'executive' }] }]);
    api.on('POST api/cases/jobs/', [
      200,
      { id: 8, action: 'assign', state: 'running', total: 1, done: 0, skipped: 0, created_at: '', finished_at: null },
    ]);
    api.on('GET api/cases/jobs/8/', [
      200,
      { id: 8, action: 'assign', state: 'running', total: 1, done: 0, skipped: 0, created_at: '', finished_at: null },
    ]);
    const user = userEvent.setup();
    renderPage('/Cases?queue=HUB1');
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    await user.click(screen.getByRole('button', { name: 'Assign to…' }));
    await user.click(await screen.findByRole('combobox', { name: 'Assign to' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Unassigned',
      'ravi (executive)',
    ]);
    expect(params(api.requestsTo('GET api/cases/assignees/')[0]!)).toEqual({ queue: 'HUB1' });
    await user.click(screen.getByRole('option', { name: 'Unassigned' }));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(api.requestsTo('POST api/cases/jobs/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/jobs/')[0]!.body).toEqual({ action: 'assign', ids: [1], assignee: null });
  });

  test('Select all M matching starts a job with the filters instead of ids, and shows its progress until done', async () => {
    serve(casesOf(120));
    let polls = 0;
    const job = { id: 5, action: 'resolve', total: 120, skipped: 2, created_at: '', finished_at: null };
    api.on('POST api/cases/jobs/', [200, { ...job, state: 'running', done: 0 }]);
    api.on('GET api/cases/jobs/5/', () =>
      ++polls === 1 ? [200, { ...job, state: 'running', done: 40 }] : [200, { ...job, state: 'done', done: 118 }],
    );
    const user = userEvent.setup();
    renderPage('/Cases?reason=E004&overdue=0');
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Select every case shown' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('50 selected')).toBeInTheDocument();
    await user.click(within(bar).getByRole('button', { name: 'Select all 120 matching' }));
    expect(within(bar).getByText('All 120 cases matching selected')).toBeInTheDocument();

    await user.click(within(bar).getByRole('button', { name: 'Resolve…' }));
    const form = within(bar).getByRole('form', { name: 'Resolve cases' });
    await choose('Disposition', 'Quarantined');
    await user.click(within(form).getByRole('button', { name: 'Start' }));
    expect(within(form).getByText('A resolution needs a note.')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Note' })).toHaveAttribute('aria-invalid', 'true');
    expect(api.requestsTo('POST api/cases/jobs/')).toHaveLength(0);
    await user.type(within(form).getByRole('textbox', { name: 'Note' }), 'Held for inspection');
    await user.click(within(form).getByRole('button', { name: 'Start' }));

    await waitFor(() => expect(api.requestsTo('POST api/cases/jobs/')).toHaveLength(1));
    expect(api.requestsTo('POST api/cases/jobs/')[0]!.body).toEqual({
      action: 'resolve',
      filters: { reason: 'E004' },
      disposition: 'quarantined',
      note: 'Held for inspection',
    });
    const progress = await screen.findByRole('progressbar', { name: 'Resolving cases' });
    // The bar and its Start gone, the keyboard's focus is on the job.
    expect(screen.getByRole('region', { name: 'Bulk job' })).toHaveFocus();
    expect(await screen.findByText('40 of 120 done (2 skipped)')).toHaveAttribute('role', 'status');
    expect(progress).toHaveAttribute('value', '40');
    const before = pageCalls().length;
    expect(await screen.findByText('118 of 120 done (2 skipped)', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Resolving cases: done' })).toHaveAttribute('value', '118');
    expect(await screen.findByText('Resolved 118 cases; 2 skipped.')).toBeInTheDocument();
    await waitFor(() => expect(pageCalls().length).toBeGreaterThan(before));
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
    // Closed, the job goes and the focus with it to the page's heading.
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Bulk job' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveFocus();
  });

  test('a refused job toasts the server’s message', async () => {
    serve(casesOf(1));
    api.on('POST api/cases/jobs/', [403, { detail: 'You may not change the cases of this queue.' }]);
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    await user.click(screen.getByRole('button', { name: 'Assign to…' }));
    await choose('Assign to', 'Unassigned');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByText('You may not change the cases of this queue.')).toBeInTheDocument();
  });

  test('ticked cases of several queues: Assign to… offers the users who may work every one of them, asked in one call', async () => {
    serve([caseOf(1), caseOf(2, { queue: 'HUB2' }), caseOf(3)]);
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select case #2' }));
    await user.click(screen.getByRole('button', { name: 'Assign to…' }));
    const form = screen.getByRole('form', { name: 'Assign cases' });
    expect(within(form).getByText('Users who may work every queue selected: HUB1, HUB2.')).toBeInTheDocument();
    await user.click(await within(form).findByRole('combobox', { name: 'Assign to' }));
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Unassigned', 'ops_a (central ops)']),
    );
    expect(assigneeCalls()).toEqual([{ queue: 'HUB1,HUB2' }]);
  });

  test('the assignees are never asked for an empty queue (400 "queue is required.")', async () => {
    signIn('central_ops');
    serve(casesOf(120));
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Select every case shown' }));
    await user.click(screen.getByRole('button', { name: 'Select all 120 matching' }));
    await user.click(screen.getByRole('button', { name: 'Assign to…' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    await user.click(screen.getByRole('button', { name: 'Assign to…' }));
    await screen.findByRole('combobox', { name: 'Assign to' });
    expect(assigneeCalls()).toEqual([{ queue: 'HUB1' }]);
    expect(screen.queryByText('queue is required.')).not.toBeInTheDocument();
  });

  test('all matching, queues not known (no Queue filter, not all read, every queue readable): a username is typed, and a refused one shows under the field', async () => {
    signIn('central_ops');
    serve(casesOf(120));
    const refusal = 'User exec_blr cannot work the cases of queue HUB1.';
    api.on('POST api/cases/jobs/', [400, { detail: refusal, field: 'assignee' }]);
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Select every case shown' }));
    await user.click(screen.getByRole('button', { name: 'Select all 120 matching' }));
    await user.click(screen.getByRole('button', { name: 'Assign to…' }));
    const form = screen.getByRole('form', { name: 'Assign cases' });
    const box = within(form).getByRole('textbox', { name: 'Assign to (username)' });
    expect(box).toHaveAccessibleDescription(
      'The cases matching may be in any queue: type a username, or filter by a queue to choose from its users.',
    );
    expect(assigneeCalls()).toEqual([]);
    await user.type(box, 'exec_blr');
    await user.click(within(form).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(box).toHaveAttribute('aria-invalid', 'true'));
    expect(box).toHaveAccessibleDescription(expect.stringContaining(refusal));
    expect(box).toHaveFocus();
    // Under the field, not toasted.
    expect(screen.getAllByText(refusal)).toHaveLength(1);
    expect(api.requestsTo('POST api/cases/jobs/')[0]!.body).toEqual({
      action: 'assign',
      filters: {},
      assignee: 'exec_blr',
    });
  });

  test('a refused assignee chosen from the list shows under Assign to, which takes the cursor', async () => {
    serve(casesOf(1));
    const refusal = 'User ravi cannot work the cases of queue HUB1.';
    api.on('POST api/cases/jobs/', [400, { detail: refusal, field: 'assignee' }]);
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    await user.click(screen.getByRole('button', { name: 'Assign to…' }));
    await choose('Assign to', 'ravi (incharge)');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    const form = screen.getByRole('form', { name: 'Assign cases' });
    expect(await within(form).findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getAllByText(refusal)).toHaveLength(1);
    expect(within(form).getByRole('combobox', { name: 'Assign to' })).toHaveFocus();
  });

  test("all matching: the Queue filter's users, else an incharge's own queue, else the queues of every case once all are read", async () => {
    serve([...casesOf(60), caseOf(61, { queue: 'HUB2' }), caseOf(62, { queue: 'HUB2' })]);
    const user = userEvent.setup();
    const assignAllMatching = async (tick: number, total: number) => {
      await user.click(screen.getByRole('checkbox', { name: `Select case #${tick}` }));
      await user.click(screen.getByRole('button', { name: `Select all ${total} matching` }));
      await user.click(screen.getByRole('button', { name: 'Assign to…' }));
      await screen.findByRole('combobox', { name: 'Assign to' });
    };

    signIn('central_ops');
    const first = renderPage('/Cases?queue=HUB2');
    await loaded();
    await assignAllMatching(61, 2);
    expect(assigneeCalls()).toEqual([{ queue: 'HUB2' }]);
    first.unmount();

    signIn('incharge', 'hub1');
    const second = renderPage();
    await loaded();
    await assignAllMatching(1, 62);
    expect(assigneeCalls().at(-1)).toEqual({ queue: 'HUB1' });
    second.unmount();

    signIn('central_ops');
    renderPage();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(shownIds()).toHaveLength(62));
    await assignAllMatching(1, 62);
    expect(assigneeCalls().at(-1)).toEqual({ queue: 'HUB1,HUB2' });
  });

  test.each([['Assign to…'], ['Resolve…']])(
    "Cancel gives the keyboard's focus back to %s, which opened the form",
    async (opener) => {
      serve(casesOf(1));
      const user = userEvent.setup();
      renderPage();
      await loaded();
      await user.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
      await user.click(screen.getByRole('button', { name: opener }));
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('form', { name: /cases$/ })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: opener })).toHaveFocus();
    },
  );

  test('other filters start with nothing selected', async () => {
    serve(casesOf(2));
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Select case #1' }));
    expect(screen.getByRole('region', { name: 'Bulk actions' })).toBeInTheDocument();
    await choose('State', 'All');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument());
  });
});

test('the due times are offered to a super_admin only', async () => {
  serve(casesOf(1));
  api.on('GET api/cases/due_times/', [200, { due_hours: { E005: 24 } }]);
  signIn('admin');
  const { unmount } = renderPage();
  await loaded();
  expect(screen.queryByText('Due times')).not.toBeInTheDocument();
  unmount();
  signIn('super_admin');
  renderPage();
  await loaded();
  expect(screen.getByText('Due times')).toBeInTheDocument();
});
