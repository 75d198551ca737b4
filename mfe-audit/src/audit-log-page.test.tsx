// The Audit Log page (docs/screens.md#audit-log) against a mock audit/ that pages and filters as the
// server does: filters in the URL, paging, details, live entries, failures.
import { MemoryRouter, useLocation, useSession, type AuditEntry } from '@veritas/shared';
import {
  FakeEventSource,
  mockApi,
  withFakeLiveStream,
  withQueryClient,
  type MockApi,
  type MockReply,
  type RecordedRequest,
} from '@veritas/shared/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUDIT_PAGE_SIZE } from './api/audit';
import AuditLogPage from './audit-log-page';

/** Entry `seq`: the higher, the newer; actions alternate sign-in and user.created. */
function entry(seq: number, change: Partial<AuditEntry> = {}): AuditEntry {
  const signIn = seq % 2 === 1;
  return {
    seq,
    time: new Date(Date.UTC(2026, 10, 20) + seq * 60_000).toISOString(),
    actor: { kind: 'user', id: '3', name: 'admin_demo', role: 'admin' },
    address: '10.0.0.7',
    action: signIn ? 'session.sign-in' : 'user.created',
    target: signIn ? null : { kind: 'user', id: String(100 + seq), label: `user${seq}` },
    outcome: 'success',
    details: null,
    hash: seq.toString(16).padStart(64, '0'),
    ...change,
  };
}

/** n entries, newest first. */
const entries = (n: number) => Array.from({ length: n }, (_, i) => entry(n - i));

let api: MockApi;
let all: AuditEntry[];

const params = (request: RecordedRequest) => request.config.params as Record<string, string | number>;
const pageCalls = () => api.requestsTo('GET audit/').map(params);

/** audit/ as the server answers it: exact filters, newest first, `before` a seq, `next` the last seq sent. */
function answer(request: RecordedRequest): MockReply {
  const p = params(request);
  const matching = all.filter(
    (e) =>
      (!p.actor || e.actor.name === p.actor) &&
      (!p.action || e.action === p.action) &&
      (!p.target_kind || e.target?.kind === p.target_kind) &&
      (!p.target || e.target?.label === p.target) &&
      (!p.outcome || e.outcome === p.outcome) &&
      (!p.since || e.time >= new Date(String(p.since)).toISOString()) &&
      (!p.until || e.time < new Date(String(p.until)).toISOString()) &&
      (!p.before || e.seq < Number(p.before)),
  );
  const page = matching.slice(0, Number(p.limit));
  const more = matching.length > page.length;
  return [200, { entries: page, next: more ? String(page[page.length - 1]!.seq) : null }];
}

function serve(initial: AuditEntry[], handler: (request: RecordedRequest) => MockReply = answer) {
  all = initial;
  api = mockApi().on('GET audit/', handler);
}

function Location() {
  const { search } = useLocation();
  return <output data-testid="search">{search}</output>;
}

function renderPage(url = '/AuditLog') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <AuditLogPage />
      <Location />
    </MemoryRouter>,
    { wrapper: withQueryClient() },
  );
}

const search = () => new URLSearchParams(screen.getByTestId('search').textContent ?? '');
const table = () => screen.getByRole('table', { name: 'Audit log entries' });
const rowOf = (seq: number) => table().querySelector<HTMLElement>(`tr[data-seq="${seq}"]`);
const shownSeqs = () => [...table().querySelectorAll<HTMLElement>('tr[data-seq]')].map((tr) => Number(tr.dataset.seq));
const loaded = () => waitFor(() => expect(screen.queryByText('Loading audit log…')).not.toBeInTheDocument());

async function choose(label: string, option: string) {
  await userEvent.click(await screen.findByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

beforeEach(() => {
  act(() => useSession.getState().setSession({ user: 'admin_demo', role: 'admin', hubCode: null }));
});
afterEach(() => api.restore());

describe('the table', () => {
  test('loading, then the entries newest first: time, actor, address, action, target, outcome', async () => {
    serve([
      entry(3, {
        actor: { kind: 'token', id: '1', name: 'pipeline', role: null },
        address: null,
        action: 'remote.promoted',
        target: { kind: 'remote', id: 'devices', label: 'devices' },
        outcome: 'refused',
      }),
      entry(2),
      entry(1, { actor: { kind: 'anonymous', id: null, name: 'mallory', role: null }, outcome: 'failure' }),
    ]);
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeInTheDocument();
    expect(screen.getByText('Loading audit log…')).toBeInTheDocument();
    await loaded();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Time', 'Actor', 'Address', 'Action', 'Target', 'Outcome', 'Details']);
    expect(shownSeqs()).toEqual([3, 2, 1]);
    const cells = (seq: number) =>
      within(rowOf(seq)!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    const time = (seq: number) => rowOf(seq)!.querySelector('time')!;
    expect(time(2)).toHaveAttribute('dateTime', entry(2).time);
    expect(time(2).textContent).toMatch(/^Nov 2\d, 2026, \d\d:\d\d:\d\d [AP]M$/);
    expect(cells(3).slice(1)).toEqual([
      'pipeline (token)',
      '—',
      'remote.promoted',
      'remote: devices',
      'refused',
      'Details of entry 3',
    ]);
    expect(cells(2).slice(1, 6)).toEqual(['admin_demo (admin)', '10.0.0.7', 'user.created', 'user: user2', 'success']);
    expect(cells(1).slice(1, 6)).toEqual(['mallory (anonymous)', '10.0.0.7', 'session.sign-in', '—', 'failure']);
    expect(pageCalls()).toEqual([{ limit: AUDIT_PAGE_SIZE }]);
    expect(screen.getByText('3 entries shown')).toHaveAttribute('aria-live', 'polite');
  });

  test('no entry: the empty state', async () => {
    serve([]);
    renderPage('/AuditLog?action=token.revoked');
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument();
  });

  test('an empty page whose search stopped in time says so, and Show older entries searches on', async () => {
    const older = entry(3, { action: 'token.revoked' });
    serve([older], (request) =>
      params(request).before === '1000'
        ? [200, { entries: [older], next: null }]
        : [200, { entries: [], next: '1000' }],
    );
    renderPage('/AuditLog?action=token.revoked');
    expect(
      await screen.findByText(
        'No entries match these filters among the newest searched. Show older entries to search further.',
      ),
    ).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show older entries' }));
    expect(await screen.findByText('1 entry shown')).toBeInTheDocument();
    expect(pageCalls()[1]).toMatchObject({ before: '1000' });
  });
});

describe('filters in the URL', () => {
  test('a URL with filters shows them in the form and asks audit/ for them; since and until are local days', async () => {
    serve(entries(4));
    renderPage(
      '/AuditLog?actor=admin_demo&action=user.created&target_kind=user&outcome=success&from=2026-11-01&to=2026-11-20',
    );
    await loaded();
    expect(screen.getByRole('textbox', { name: 'Actor' })).toHaveValue('admin_demo');
    expect(await screen.findByRole('combobox', { name: 'Action' })).toHaveValue('user.created');
    expect(screen.getByRole('combobox', { name: 'Target kind' })).toHaveValue('user');
    expect(screen.getByRole('combobox', { name: 'Outcome' })).toHaveValue('success');
    expect(screen.getByLabelText('From')).toHaveValue('2026-11-01');
    expect(screen.getByLabelText('To')).toHaveValue('2026-11-20');
    expect(pageCalls()).toEqual([
      {
        actor: 'admin_demo',
        action: 'user.created',
        target_kind: 'user',
        outcome: 'success',
        since: new Date(2026, 10, 1).toISOString(),
        until: new Date(2026, 10, 21).toISOString(),
        limit: AUDIT_PAGE_SIZE,
      },
    ]);
    expect(shownSeqs()).toEqual([4, 2]);
  });

  test('Actor and Target apply on Apply or Enter, not while typing', async () => {
    serve(entries(6));
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.type(screen.getByRole('textbox', { name: 'Target' }), 'user4');
    expect(pageCalls()).toHaveLength(1);
    expect(screen.getByText('Press Apply to filter by the text typed.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(shownSeqs()).toEqual([4]));
    expect(search().get('target')).toBe('user4');
    expect(pageCalls()[1]).toEqual({ target: 'user4', limit: AUDIT_PAGE_SIZE });

    await user.type(screen.getByRole('textbox', { name: 'Actor' }), '  nobody {Enter}');
    await waitFor(() => expect(screen.getByText('No entries match these filters.')).toBeInTheDocument());
    expect(search().get('actor')).toBe('nobody');
    expect(screen.getByRole('textbox', { name: 'Actor' })).toHaveValue('nobody');
  });

  test('a dropdown or a day applies at once, with the text typed so far', async () => {
    serve(entries(6));
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.type(screen.getByRole('textbox', { name: 'Actor' }), 'admin_demo');
    await choose('Action', 'session.sign-in');
    await waitFor(() => expect(shownSeqs()).toEqual([5, 3, 1]));
    expect(Object.fromEntries(search())).toEqual({ actor: 'admin_demo', action: 'session.sign-in' });

    await user.type(screen.getByLabelText('From'), '2026-11-21');
    await waitFor(() => expect(search().get('from')).toBe('2026-11-21'));
    expect(pageCalls().at(-1)).toEqual({
      actor: 'admin_demo',
      action: 'session.sign-in',
      since: new Date(2026, 10, 21).toISOString(),
      limit: AUDIT_PAGE_SIZE,
    });
  });

  test('Clear filters empties the form and the URL', async () => {
    serve(entries(6));
    const user = userEvent.setup();
    renderPage('/AuditLog?actor=admin_demo&outcome=success&to=2026-11-30');
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByTestId('search')).toHaveTextContent(/^$/));
    expect(screen.getByRole('textbox', { name: 'Actor' })).toHaveValue('');
    expect(screen.getByLabelText('To')).toHaveValue('');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Outcome' })).toHaveValue('Any outcome'));
    expect(pageCalls().at(-1)).toEqual({ limit: AUDIT_PAGE_SIZE });
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeDisabled();
  });

  test('Export CSV links audit/export/ with the filters shown, without paging', async () => {
    serve(entries(2));
    renderPage('/AuditLog?action=session.sign-in&from=2026-11-01');
    await loaded();
    const link = screen.getByRole('link', { name: 'Export CSV' });
    expect(link).toHaveAttribute('download');
    const href = new URL(link.getAttribute('href')!, 'http://console.test');
    expect(href.pathname).toBe('/veritas/audit/export/');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      action: 'session.sign-in',
      since: new Date(2026, 10, 1).toISOString(),
    });
  });
});

describe('paging', () => {
  test('Show older entries reads the page after `next` until there is none', async () => {
    serve(entries(120));
    const user = userEvent.setup();
    renderPage();
    await loaded();
    expect(shownSeqs()).toHaveLength(50);
    expect(screen.getByText('50 entries shown; older entries follow')).toBeInTheDocument();
    const older = screen.getByRole('button', { name: 'Show older entries' });
    await user.click(older);
    await waitFor(() => expect(shownSeqs()).toHaveLength(100));
    await user.click(older);
    await waitFor(() => expect(shownSeqs()).toHaveLength(120));
    expect(shownSeqs()[119]).toBe(1);
    expect(pageCalls().map((p) => p.before)).toEqual([undefined, '71', '21']);
    expect(older).toHaveTextContent('No older entries');
    expect(older).toHaveAttribute('aria-disabled', 'true');
    await user.click(older);
    expect(pageCalls()).toHaveLength(3);
  });

  test('a page that fails says so; Show older entries asks again', async () => {
    serve(entries(60), (request) =>
      params(request).before && pageCalls().length === 2 ? [503, { detail: 'The database is busy.' }] : answer(request),
    );
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Show older entries' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is busy.');
    expect(shownSeqs()).toHaveLength(50);
    await user.click(screen.getByRole('button', { name: 'Show older entries' }));
    await waitFor(() => expect(shownSeqs()).toHaveLength(60));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('details', () => {
  test('a row expands to its details: the full actor, the target id, the hash, before → after and the other keys, as text', async () => {
    serve([
      entry(9, {
        action: 'brand.updated',
        target: { kind: 'brand', id: '4', label: 'Acme' },
        details: {
          before: { brand: 'Acme', data: ['HP'] },
          after: { brand: 'Acme', data: ['HP', '<img src=x onerror="alert(1)">'] },
          note: '<script>alert(1)</script>',
          count: { rows: 2 },
        },
      }),
    ]);
    const user = userEvent.setup();
    renderPage();
    await loaded();
    const toggle = screen.getByRole('button', { name: 'Details of entry 9' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).not.toHaveAttribute('aria-controls');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const details = screen.getByRole('region', { name: 'Details of entry 9' });
    expect(toggle).toHaveAttribute('aria-controls', details.id);
    const fact = (term: string) => within(details).getByText(term, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(fact('Actor')).toBe('user admin_demo, role admin, id 3');
    expect(fact('Target id')).toBe('4');
    expect(fact('Hash')).toBe(entry(9).hash);
    expect(fact('note')).toBe('<script>alert(1)</script>');
    expect(fact('count')).toBe('{"rows":2}');

    const change = within(details).getByRole('table', { name: 'Before → After' });
    const rows = within(change)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['brand', 'Acme', 'Acme'],
      ['data (changed)', '["HP"]', '["HP","<img src=x onerror=\\"alert(1)\\">"]'],
    ]);
    expect(within(details).getByText('Changed:').textContent).toBe('Changed: data');
    expect(details.querySelector('img, script')).toBeNull();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Details of entry 9' })).not.toBeInTheDocument();
  });

  test('an entry without details says so', async () => {
    serve([entry(1)]);
    const user = userEvent.setup();
    renderPage();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Details of entry 1' }));
    expect(screen.getByText('No further details.')).toBeInTheDocument();
  });
});

describe('failures', () => {
  test('a failed call shows its message and Retry, which loads the entries', async () => {
    let fail = true;
    serve(entries(2), (request) => (fail ? [500, { detail: 'Internal server error' }] : answer(request)));
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal server error');
    expect(screen.queryByText('Loading audit log…')).not.toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(shownSeqs()).toEqual([2, 1]));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('no answer at all: the fallback message', async () => {
    serve([], () => [0, undefined]);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load the audit log');
  });

  test("403: the server's refusal, no Retry, no export", async () => {
    serve([], () => [403, { detail: 'Only admins can read the audit log.' }]);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Only admins can read the audit log.');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Export CSV' })).not.toBeInTheDocument();
  });

  test.each<[string, MockReply, string]>([
    [
      "the server's own words",
      [403, { detail: 'Your role may not read the audit log.' }],
      'Your role may not read the audit log.',
    ],
    ['without a body, the fallback', [403, undefined], 'Failed to load the audit log'],
  ])('403: %s, no Retry', async (_case, reply, shown) => {
    serve([], () => reply);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(shown);
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});

describe('live entries', () => {
  withFakeLiveStream();
  let eventId = 0;

  beforeEach(() => {
    act(() =>
      useSession.getState().setSession({ user: 'admin_demo', role: 'admin', hubCode: null, features: ['live-events'] }),
    );
    act(() => FakeEventSource.latest!.open());
  });

  /** The server records `added` and sends its event. */
  function record(added: AuditEntry) {
    all = [added, ...all];
    act(() => FakeEventSource.latest!.emit('audit', added, ++eventId));
  }

  test('an entry matching the filters goes on top, once, and is announced; others are left out', async () => {
    serve(entries(4));
    renderPage('/AuditLog?action=session.sign-in');
    await loaded();
    expect(shownSeqs()).toEqual([3, 1]);
    const announced = screen.getByText((_, element) => element?.classList.contains('al-fresh') ?? false);
    expect(announced).toHaveAttribute('role', 'status');
    expect(announced).toHaveTextContent(/^$/);

    record(entry(5));
    await waitFor(() => expect(shownSeqs()).toEqual([5, 3, 1]));
    expect(announced).toHaveTextContent('1 new entry');

    record(entry(6)); // user.created: not shown under this filter
    act(() => FakeEventSource.latest!.emit('audit', entry(5), ++eventId)); // the same entry again
    record(entry(7));
    await waitFor(() => expect(shownSeqs()).toEqual([7, 5, 3, 1]));
    expect(announced).toHaveTextContent('2 new entries');
    expect(pageCalls()).toHaveLength(1);
  });

  test('a reset reads the entries again', async () => {
    serve(entries(2));
    renderPage();
    await loaded();
    all = entries(3);
    act(() => FakeEventSource.latest!.emit('reset', {}, ++eventId));
    await waitFor(() => expect(shownSeqs()).toEqual([3, 2, 1]));
    expect(pageCalls()).toHaveLength(2);
  });
});
