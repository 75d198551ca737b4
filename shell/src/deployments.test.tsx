// The Deployments page (route /Deployments, docs/screens.md#deployments): rollouts of every remote,
// their confirmations, and for super_admin deploy tokens and allowed origins. Calls answer at the
// http boundary (the shared client's adapter), as in the other tests of the shell.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AccessToken, RemoteDeployment, RemoteVersion, Role, RolloutChange } from '@veritas/shared';
import {
  FakeEventSource,
  installFakeEventSource,
  mutationsKeep,
  type MockApi,
  type RecordedRequest,
} from '@veritas/shared/testing';
import { setLocalZone } from '@veritas/shared/testing/time-zone';
import { queryClient } from '@veritas/shared/query';
import { renderShell, serveComposition, serveRemotePages, signedInAs, startApi } from '../test/harness';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

const version = (n: number, extra: Partial<RemoteVersion> = {}): RemoteVersion => ({
  remote: 'devices',
  version: n,
  manifestHash: `hash${n}`,
  integrity: `sha384-v${n}`,
  contract: '1.0.0',
  shared: [],
  exposes: ['./ListDevices'],
  manifestUrl: `/remotes/devices/hash${n}/mf-manifest.json`,
  source: 'registry',
  bytes: 1000,
  publishedBy: 'ci-devices',
  publishedAt: '2026-03-05T09:07:00Z',
  note: null,
  ...extra,
});

const DEVICES: RemoteDeployment = {
  remote: 'devices',
  live: 3,
  canary: { version: 5, percent: 10 },
  previous: 2,
  versions: [version(5), version(4), version(3, { publishedBy: 'ravi', note: 'Faster pick list' }), version(2)],
  history: [
    { id: 4, action: 'canary', from: null, to: 5, percent: 10, by: 'asha', at: '2026-03-06T10:00:00Z' },
    { id: 3, action: 'promote', from: 2, to: 3, percent: null, by: 'ci-devices', at: '2026-03-05T10:00:00Z' },
  ],
};

const USERS: RemoteDeployment = {
  remote: 'users',
  live: 1,
  canary: null,
  previous: null,
  versions: [{ ...version(1), remote: 'users' }],
  history: [{ id: 1, action: 'promote', from: null, to: 1, percent: null, by: 'asha', at: '2026-03-01T08:00:00Z' }],
};

const TOKEN: AccessToken = {
  id: 7,
  label: 'devices pipeline',
  scope: 'deploy:devices',
  expiresAt: '2099-12-31T23:59:59Z',
  createdBy: 'root',
  createdAt: '2026-03-01T08:00:00Z',
  revokedAt: null,
  lastUsedAt: null,
};

let api: MockApi;

beforeEach(() => {
  api = startApi();
  serveComposition();
  serveRemotePages();
  api.on('GET registry/remotes/', [200, { remotes: [DEVICES, USERS] }]);
});

afterEach(() => api.restore());

async function openAs(role: Role) {
  signedInAs(api, role);
  const user = userEvent.setup();
  renderShell('/Deployments');
  await screen.findByRole('heading', { level: 1, name: 'Deployments' });
  const devices = await screen.findByRole('region', { name: 'devices' });
  return { user, devices, users: screen.getByRole('region', { name: 'users' }) };
}

/** What a remote's summary says under `term` (Live, Canary). */
const summary = (remote: HTMLElement, term: string) =>
  within(remote).getByText(term, { selector: 'dt' }).nextElementSibling;

const rowOf = (table: HTMLElement, header: string) =>
  within(table).getByRole('rowheader', { name: header }).closest('tr') as HTMLElement;

/** Types `day` over the token form's expiry, which starts at DEFAULT_TOKEN_DAYS from today. */
async function typeExpiry(user: ReturnType<typeof userEvent.setup>, form: HTMLElement, day: string) {
  const expiry = within(form).getByLabelText('Expires on (last valid day)');
  await user.clear(expiry);
  await user.type(expiry, day);
}

describe('rollouts', () => {
  test("shows each remote's live version (who, when, note), its canary and share, its versions and history", async () => {
    const { devices } = await openAs('admin');
    expect(summary(devices, 'Live')).toHaveTextContent(
      /^v3, published by ravi on 03\/05\/2026, \d\d:07 (AM|PM): Faster pick list$/,
    );
    expect(summary(devices, 'Canary')).toHaveTextContent('v5 for 10% of users');

    const versions = within(devices).getByRole('table', { name: 'devices: versions kept' });
    expect(
      within(versions)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['v5', 'v4', 'v3', 'v2']);
    expect(rowOf(versions, 'v3')).toHaveTextContent('Live');
    expect(rowOf(versions, 'v5')).toHaveTextContent('Canary, 10%');

    const history = within(devices).getByRole('table', { name: 'devices: history' });
    const rows = within(history).getAllByRole('row').slice(1);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Canary', '— → v5', '10%', 'asha', expect.stringMatching(/^03\/06\/2026, /)]);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .slice(0, 4)
        .map((cell) => cell.textContent),
    ).toEqual(['Promote', 'v2 → v3', '—', 'ci-devices']);
  });

  test('Promote asks in a dialog what will happen, and calls promote only after it is confirmed', async () => {
    api.on('POST registry/remotes/devices/promote/', [200, { ...DEVICES, live: 4, previous: 3 }]);
    const { user, devices } = await openAs('admin');
    await user.click(within(devices).getByRole('button', { name: 'Promote devices v4' }));
    const dialog = await screen.findByRole('dialog', { name: 'Promote devices v4' });
    expect(dialog).toHaveTextContent('Make devices v4 live for everyone? v3 is live now.');
    expect(api.requestsTo('POST registry/remotes/devices/promote/')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Promote' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.requestsTo('POST registry/remotes/devices/promote/').map((r) => r.body)).toEqual([{ version: 4 }]);
    expect(summary(devices, 'Live')).toHaveTextContent(/^v4, /);
    expect(within(devices).getByRole('status')).toHaveTextContent('devices v4 is live.');
  });

  test("confirmed from the keyboard, a change whose button leaves with it keeps the focus, on the remote's heading (docs/screens.md#dialogs)", async () => {
    api.on('POST registry/remotes/devices/promote/', [200, { ...DEVICES, live: 4, previous: 3 }]);
    const { user, devices } = await openAs('admin');
    within(devices).getByRole('button', { name: 'Promote devices v4' }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Promote devices v4' });
    within(dialog).getByRole('button', { name: 'Promote' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(devices).getByRole('button', { name: 'Promote devices v4' })).toBeDisabled();
    await waitFor(() => expect(within(devices).getByRole('heading', { name: 'devices' })).toHaveFocus());
  });

  test('Cancel (or Escape) closes the confirmation and sends nothing', async () => {
    const { user, devices } = await openAs('admin');
    const promote = within(devices).getByRole('button', { name: 'Promote devices v4' });
    await user.click(promote);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(promote).toHaveFocus();
    await user.click(within(devices).getByRole('button', { name: /^Roll back/ }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  test("each card's Rollback, Stop canary and Retire are named for its remote, their visible text first (label in name), not one name repeated", async () => {
    const { devices, users } = await openAs('admin');
    const named = (card: HTMLElement) =>
      within(within(card).getByRole('button', { name: /^Retire/ }).parentElement!)
        .getAllByRole('button')
        .map((button) => [button.textContent, button.getAttribute('aria-label')]);
    expect(named(devices)).toEqual([
      ['Roll back to v2', 'Roll back to v2 of devices'],
      ['Stop canary', 'Stop canary of devices'],
      ['Retire', 'Retire devices'],
    ]);
    expect(named(users)).toEqual([
      ['Rollback', 'Rollback users'],
      ['Retire', 'Retire users'],
    ]);
  });

  test('Rollback names the version it makes live again and calls rollback only after it is confirmed', async () => {
    api.on('POST registry/remotes/devices/rollback/', [200, { ...DEVICES, live: 2, previous: null }]);
    const { user, devices } = await openAs('super_admin');
    await user.click(within(devices).getByRole('button', { name: 'Roll back to v2 of devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roll back devices' });
    expect(dialog).toHaveTextContent('Make devices v2 live again for everyone? v3 is live now.');
    expect(api.requestsTo('POST registry/remotes/devices/rollback/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(api.requestsTo('POST registry/remotes/devices/rollback/')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(devices).getByRole('button', { name: 'Rollback devices' })).toBeDisabled();
  });

  test('Rollback is disabled, with the reason, when no earlier version was live', async () => {
    const { users } = await openAs('admin');
    const rollback = within(users).getByRole('button', { name: 'Rollback users' });
    expect(rollback).toBeDisabled();
    expect(rollback).toHaveAccessibleDescription('Nothing to roll back to: no earlier version was live.');
    expect(within(users).queryByRole('button', { name: /^Stop canary/ })).not.toBeInTheDocument();
  });

  test('Stop canary names the canary and its users, and calls canary/stop only after it is confirmed', async () => {
    api.on('POST registry/remotes/devices/canary/stop/', [200, { ...DEVICES, canary: null }]);
    const { user, devices } = await openAs('admin');
    await user.click(within(devices).getByRole('button', { name: 'Stop canary of devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop the canary of devices' });
    expect(dialog).toHaveTextContent('Stop the canary of devices v5? Its 10% of users get v3 again.');
    expect(api.requestsTo('POST registry/remotes/devices/canary/stop/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Stop canary' }));
    await waitFor(() => expect(summary(devices, 'Canary')).toHaveTextContent('None'));
    expect(api.requestsTo('POST registry/remotes/devices/canary/stop/')).toHaveLength(1);
  });

  test('Retire says what leaves the console and calls retire only after it is confirmed', async () => {
    api.on('POST registry/remotes/devices/retire/', [200, { ...DEVICES, live: null, canary: null, previous: 3 }]);
    const { user, devices } = await openAs('admin');
    await user.click(within(devices).getByRole('button', { name: 'Retire devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retire devices' });
    expect(dialog).toHaveTextContent(
      'Take devices out of the console? Its pages, menu entries and panels leave every console at its next navigation, its canary of v5 stops, and nothing of it is live until a version is promoted again. v3 is live now.',
    );
    expect(api.requestsTo('POST registry/remotes/devices/retire/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Retire' }));
    await waitFor(() => expect(summary(devices, 'Live')).toHaveTextContent('Nothing from the registry'));
    expect(api.requestsTo('POST registry/remotes/devices/retire/')).toHaveLength(1);
    expect(within(devices).getByRole('status')).toHaveTextContent('devices is retired: nothing of it is live.');
    const retire = within(devices).getByRole('button', { name: 'Retire devices' });
    expect(retire).toBeDisabled();
    expect(retire).toHaveAccessibleDescription('Nothing of it is live to retire.');
  });

  test('Start canary asks for the share of users (1 to 99) and sends the version and the percent', async () => {
    api.on('POST registry/remotes/devices/canary/', [200, { ...DEVICES, canary: { version: 4, percent: 25 } }]);
    const { user, devices } = await openAs('admin');
    await user.click(within(devices).getByRole('button', { name: 'Start canary of devices v4' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start a canary of devices v4' });
    const share = within(dialog).getByLabelText('Share of users (%)');
    expect(share).toHaveFocus();
    await user.clear(share);
    await user.type(share, '100');
    await user.click(within(dialog).getByRole('button', { name: 'Start canary' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The share of users is 1 to 99 percent.');
    expect(api.requestsTo('POST registry/remotes/devices/canary/')).toHaveLength(0);

    await user.clear(share);
    await user.type(share, '25');
    await user.click(within(dialog).getByRole('button', { name: 'Start canary' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.requestsTo('POST registry/remotes/devices/canary/').map((r) => r.body)).toEqual([
      { version: 4, percent: 25 },
    ]);
    expect(summary(devices, 'Canary')).toHaveTextContent('v4 for 25% of users');
  });

  test("while the change runs Confirm keeps the focus and takes no second press; a refusal (409) shows the registry's detail in the dialog and leaves its buttons usable (docs/screens.md#buttons)", async () => {
    let answer: (reply: [number, unknown]) => void = () => {};
    api.on('POST registry/remotes/devices/promote/', () => new Promise((resolve) => (answer = resolve)));
    const { user, devices } = await openAs('admin');
    await user.click(within(devices).getByRole('button', { name: 'Promote devices v4' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Promote' });
    await user.click(confirm);
    expect(confirm).toHaveAttribute('aria-disabled', 'true');
    expect(confirm).toBeEnabled();
    expect(confirm).toHaveFocus();
    await user.click(confirm);
    expect(api.requestsTo('POST registry/remotes/devices/promote/')).toHaveLength(1);

    answer([409, { detail: 'devices v4 needs @veritas/shared ^2.0.0, the console provides 1.0.0.' }]);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'devices v4 needs @veritas/shared ^2.0.0, the console provides 1.0.0.',
    );
    expect(confirm).not.toHaveAttribute('aria-disabled');
    expect(confirm).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(summary(devices, 'Live')).toHaveTextContent(/^v3, /);
  });

  test('a remotes live event (another admin, a pipeline) fetches the rollouts again', async () => {
    const removeFake = installFakeEventSource();
    api
      .on('GET user/is_LoggedIn/', [200, {}])
      .on('GET user/get_role/', [200, { user: 'asha', role: 'admin', hub_code: null, features: ['live-events'] }]);
    renderShell('/Deployments');
    const devices = await screen.findByRole('region', { name: 'devices' });
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => FakeEventSource.latest!.open());
    api.on('GET registry/remotes/', [200, { remotes: [{ ...DEVICES, live: 5, canary: null }, USERS] }]);
    act(() => FakeEventSource.latest!.emit('remotes', { remote: 'devices' }, 3));
    await waitFor(() => expect(summary(devices, 'Live')).toHaveTextContent(/^v5, /));
    expect(api.requestsTo('GET registry/remotes/')).toHaveLength(2);
    removeFake();
  });
});

describe('history', () => {
  /** Change n promotes v(n-1) to vn, an hour after change n-1. */
  const change = (n: number): RolloutChange => ({
    id: n,
    action: 'promote',
    from: n - 1 || null,
    to: n,
    percent: null,
    by: 'ci-devices',
    at: new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString(),
  });
  /** 94 changes, newest first. */
  const ALL = Array.from({ length: 94 }, (_, i) => change(94 - i));
  const fromTo = (c: RolloutChange) => `${c.from === null ? '—' : `v${c.from}`} → v${c.to}`;

  /** What the registry holds: its pages are read from it. */
  let stored: RolloutChange[];
  /** The registry's page of `stored`: the changes older than `before`, `limit` of them. */
  const page = ({ config }: RecordedRequest): [number, unknown] => {
    const { before, limit } = config.params as { before?: string; limit: number };
    const older = stored.filter((c) => before === undefined || c.id < Number(before));
    const changes = older.slice(0, limit);
    return [200, { changes, next: older.length > limit ? String(changes.at(-1)!.id) : null }];
  };
  const beforeOf = (request: RecordedRequest) => (request.config.params as { before?: string }).before;

  const historyRows = (remote: HTMLElement) =>
    within(within(remote).getByRole('table', { name: 'devices: history' }))
      .getAllByRole('row')
      .slice(1);
  const fromToOf = (rows: HTMLElement[]) => rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent);

  beforeEach(() => {
    stored = ALL;
    api.on('GET registry/remotes/', [200, { remotes: [{ ...DEVICES, history: ALL.slice(0, 50) }, USERS] }]);
  });

  test('shows the newest 50 changes; "Show older changes" reads the next page, by keyboard too, until none is left', async () => {
    api.on('GET registry/remotes/devices/history/', page);
    const { user, devices } = await openAs('admin');
    expect(fromToOf(historyRows(devices))).toEqual(ALL.slice(0, 50).map(fromTo));

    const older = await within(devices).findByRole('button', { name: 'Show older changes' });
    expect(within(devices).getByText('50 changes shown')).toHaveAttribute('role', 'status');
    older.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(historyRows(devices)).toHaveLength(94));
    // Every change once, newest first: no gap, no repeat.
    expect(fromToOf(historyRows(devices))).toEqual(ALL.map(fromTo));
    expect(older).toHaveTextContent('No older changes');
    expect(older).toHaveAttribute('aria-disabled', 'true');
    expect(older).toHaveFocus();
    expect(within(devices).getByText('94 changes shown')).toBeInTheDocument();

    await user.click(older);
    expect(api.requestsTo('GET registry/remotes/devices/history/').map((r) => r.config.params)).toEqual([
      { limit: 50 },
      { before: '45', limit: 50 },
    ]);
    // A remote with fewer changes than a page has them all already.
    expect(api.requestsTo('GET registry/remotes/users/history/')).toHaveLength(0);
  });

  test('a page that fails says so beside the button, which reads it again', async () => {
    let fail = true;
    api.on('GET registry/remotes/devices/history/', (request) =>
      beforeOf(request) && fail ? [503, { detail: 'The database is unavailable: try again shortly.' }] : page(request),
    );
    const { user, devices } = await openAs('admin');
    const older = await within(devices).findByRole('button', { name: 'Show older changes' });
    await user.click(older);
    expect(await within(devices).findByRole('alert')).toHaveTextContent(
      'The database is unavailable: try again shortly.',
    );
    expect(historyRows(devices)).toHaveLength(50);
    expect(older).toHaveTextContent('Show older changes');

    fail = false;
    await user.click(older);
    await waitFor(() => expect(historyRows(devices)).toHaveLength(94));
    expect(within(devices).queryByRole('alert')).not.toBeInTheDocument();
  });

  test('while older changes load, the button says so and the table is busy', async () => {
    let release = () => {};
    api.on('GET registry/remotes/devices/history/', (request) =>
      beforeOf(request)
        ? new Promise((resolve) => {
            release = () => resolve(page(request));
          })
        : page(request),
    );
    const { user, devices } = await openAs('admin');
    await user.click(await within(devices).findByRole('button', { name: 'Show older changes' }));
    const loading = await within(devices).findByRole('button', { name: 'Loading older changes…' });
    expect(loading).toHaveAttribute('aria-disabled', 'true');
    expect(within(devices).getByRole('table', { name: 'devices: history' })).toHaveAttribute('aria-busy', 'true');
    act(() => release());
    await waitFor(() => expect(historyRows(devices)).toHaveLength(94));
    expect(within(devices).getByRole('table', { name: 'devices: history' })).not.toHaveAttribute('aria-busy');
  });

  test('a rollout change reads the pages shown again: the new change on top, the older ones kept', async () => {
    api.on('GET registry/remotes/devices/history/', page);
    const { user, devices } = await openAs('admin');
    await user.click(await within(devices).findByRole('button', { name: 'Show older changes' }));
    await waitFor(() => expect(historyRows(devices)).toHaveLength(94));

    stored = [{ ...change(95), action: 'rollback', from: 94, to: 93 }, ...ALL];
    api.on('POST registry/remotes/devices/rollback/', [200, { ...DEVICES, live: 2, history: stored.slice(0, 50) }]);
    await user.click(within(devices).getByRole('button', { name: 'Roll back to v2 of devices' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const rows = historyRows(devices);
    expect(fromToOf(rows)).toEqual(['v94 → v93', ...ALL.map(fromTo)]);
    expect(within(rows[0]!).getAllByRole('cell')[0]).toHaveTextContent('Rollback');
  });
});

describe('who sees what', () => {
  test('admins find Deployments in the top bar, marked as the current page', async () => {
    await openAs('admin');
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Deployments' }),
    ).toHaveAttribute('aria-current', 'page');
  });

  test('an executive opening /Deployments is led to the Dashboard, with no registry call', async () => {
    signedInAs(api, 'executive');
    renderShell('/Deployments');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Dashboard'));
    expect(screen.queryByRole('link', { name: 'Deployments' })).not.toBeInTheDocument();
    expect(api.requestsTo('GET registry/remotes/')).toHaveLength(0);
  });

  test('an admin sees no deploy tokens nor allowed origins, and the page does not ask for them', async () => {
    await openAs('admin');
    expect(screen.queryByRole('region', { name: 'Deploy tokens' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Allowed origins' })).not.toBeInTheDocument();
    expect(api.requestsTo('GET registry/tokens/')).toHaveLength(0);
    expect(api.requestsTo('GET registry/origins/')).toHaveLength(0);
  });
});

describe('super_admin: deploy tokens and allowed origins', () => {
  beforeEach(() => {
    api
      .on('GET registry/tokens/', [200, { tokens: [TOKEN] }])
      .on('GET registry/origins/', [
        200,
        { origins: [{ origin: 'https://cdn.team.example', addedBy: 'root', addedAt: '2026-03-01T08:00:00Z' }] },
      ]);
  });

  test('creating a token shows its secret once, read-only with a warning; Done removes it for good', async () => {
    const secret = 'vxd_7_5f2b9c0e4a1d8f36b7e2c9a04d1f8e6b';
    api.on('POST registry/tokens/', [
      201,
      { token: { ...TOKEN, id: 8, label: 'data pipeline', scope: 'deploy:data' }, secret },
    ]);
    const { user } = await openAs('super_admin');
    const tokens = screen.getByRole('region', { name: 'Deploy tokens' });
    const table = within(tokens).getByRole('table', { name: 'Deploy tokens' });
    expect(await within(table).findByRole('rowheader', { name: 'devices pipeline' })).toBeInTheDocument();
    expect(rowOf(table, 'devices pipeline')).toHaveTextContent('devices only');

    const form = within(tokens).getByRole('form', { name: 'Create a deploy token' });
    await user.type(within(form).getByLabelText('Label'), 'data pipeline');
    await user.selectOptions(within(form).getByLabelText('May deploy'), 'data only');
    await typeExpiry(user, form, '2099-06-30');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));

    const field = await within(tokens).findByLabelText('Secret of data pipeline');
    expect(field).toHaveValue(secret);
    expect(field).toHaveAttribute('readonly');
    expect(field).toHaveFocus();
    expect(field).toHaveAccessibleDescription(/shown once/);
    expect(api.requestsTo('POST registry/tokens/').map((r) => r.body)).toEqual([
      { label: 'data pipeline', scope: 'deploy:data', expiresOn: '2099-06-30' },
    ]);

    await user.click(within(tokens).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
    // The secret's field is gone: the keyboard is back in the form, not on the page.
    expect(within(form).getByLabelText('Label')).toHaveFocus();
    expect(document.body).not.toHaveTextContent(secret);
    // Nor does the query cache keep the answer that carried it.
    await waitFor(() => expect(mutationsKeep(queryClient, secret)).toBe(false));
    // The next token starts from a blank form, its expiry 90 days from today (UTC).
    expect(within(form).getByLabelText('Label')).toHaveValue('');
    expect(within(form).getByLabelText('May deploy')).toHaveDisplayValue('All remotes');
    expect(within(form).getByLabelText('Expires on (last valid day)')).toHaveValue(
      new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10),
    );
  });

  test("while the token is made Create token reads 'Creating token…', keeps the focus and takes no second press", async () => {
    let answer: (reply: [number, unknown]) => void = () => {};
    api.on('POST registry/tokens/', () => new Promise((resolve) => (answer = resolve)));
    const { user } = await openAs('super_admin');
    const tokens = screen.getByRole('region', { name: 'Deploy tokens' });
    const form = within(tokens).getByRole('form', { name: 'Create a deploy token' });
    await user.type(within(form).getByLabelText('Label'), 'data pipeline');
    const create = within(form).getByRole('button', { name: 'Create token' });
    await user.click(create);
    expect(create).toHaveTextContent('Creating token…');
    expect(create).toHaveAttribute('aria-disabled', 'true');
    expect(create).toHaveFocus();
    await user.click(create);
    await user.type(within(form).getByLabelText('Label'), '{Enter}');
    expect(api.requestsTo('POST registry/tokens/')).toHaveLength(1);
    act(() => answer([201, { token: { ...TOKEN, id: 8, label: 'data pipeline' }, secret: 'vxd_8_0123456789abcdef' }]));
    expect(await within(tokens).findByLabelText('Secret of data pipeline')).toBeInTheDocument();
  });

  test("the token form's faults show under their fields, the first to correct taking the cursor", async () => {
    api.on('POST registry/tokens/', [400, { detail: 'The expiry must be today or later.', field: 'expiresOn' }]);
    const { user } = await openAs('super_admin');
    const form = within(screen.getByRole('region', { name: 'Deploy tokens' })).getByRole('form', {
      name: 'Create a deploy token',
    });
    const label = within(form).getByLabelText('Label');
    const expiry = within(form).getByLabelText('Expires on (last valid day)');
    await user.clear(expiry);
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    await waitFor(() => expect(label).toHaveFocus());
    expect(label).toHaveAccessibleDescription('Give the token a label.');
    expect(expiry).toHaveAccessibleDescription(/Choose when the token expires\.$/);
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(api.requestsTo('POST registry/tokens/')).toHaveLength(0);

    // A refusal of the server's that names a field shows under that field.
    await user.type(label, 'late pipeline');
    await typeExpiry(user, form, '2099-06-30');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    await waitFor(() => expect(expiry).toHaveFocus());
    expect(expiry).toHaveAccessibleDescription(/The expiry must be today or later\.$/);
    expect(label).not.toHaveAccessibleDescription();
  });

  test('a token for a new remote, before its first publish: its name is typed and sent as the scope', async () => {
    const secret = 'vxd_9_0a1b2c3d4e5f60718293a4b5c6d7e8f9';
    api.on('POST registry/tokens/', [
      201,
      { token: { ...TOKEN, id: 9, label: 'cases pipeline', scope: 'deploy:cases' }, secret },
    ]);
    const { user } = await openAs('super_admin');
    const tokens = screen.getByRole('region', { name: 'Deploy tokens' });
    const form = within(tokens).getByRole('form', { name: 'Create a deploy token' });
    await user.type(within(form).getByLabelText('Label'), 'cases pipeline');
    await user.selectOptions(within(form).getByLabelText('May deploy'), 'A new remote…');
    await typeExpiry(user, form, '2099-06-30');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    // The fault shows under the name's field, which takes the cursor.
    const name = within(form).getByLabelText("New remote's name");
    await waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveAccessibleDescription('Name the new remote the token may deploy.');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    // A name the registry would refuse is said as the registry says a remote's name is written.
    await user.type(name, 'Cases Team');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    await waitFor(() =>
      expect(name).toHaveAccessibleDescription(
        'A remote is named by lower-case letters, digits and hyphens: "Cases Team".',
      ),
    );
    expect(api.requestsTo('POST registry/tokens/')).toHaveLength(0);
    await user.clear(name);

    await user.type(within(form).getByLabelText("New remote's name"), 'cases');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    expect(await within(tokens).findByLabelText('Secret of cases pipeline')).toHaveValue(secret);
    expect(api.requestsTo('POST registry/tokens/').map((r) => r.body)).toEqual([
      { label: 'cases pipeline', scope: 'deploy:cases', expiresOn: '2099-06-30' },
    ]);
  });

  describe.each(['Pacific/Auckland', 'America/Los_Angeles'])("in the browser's zone %s", (zone) => {
    // 20:00 UTC on 26 Dec 2026: 09:00 on the 27th in Auckland, 12:00 on the 26th in Los Angeles.
    const NOW = new Date('2026-12-26T20:00:00Z');
    let restoreZone: () => void;
    beforeEach(() => {
      restoreZone = setLocalZone(zone);
      jest.useFakeTimers({
        now: NOW,
        doNotFake: [
          'nextTick',
          'setImmediate',
          'setTimeout',
          'setInterval',
          'queueMicrotask',
          'requestAnimationFrame',
          'performance',
          'hrtime',
          'clearTimeout',
          'clearInterval',
          'clearImmediate',
          'cancelAnimationFrame',
          'requestIdleCallback',
          'cancelIdleCallback',
        ],
      });
    });
    afterEach(() => {
      jest.useRealTimers();
      restoreZone();
    });

    test('a token shows its last valid day and the instant it ends in UTC, as the server applies them', async () => {
      // Created with expiresOn 2026-12-26 and 2026-12-25: the server ends them at 00:00 UTC the day after.
      api.on('GET registry/tokens/', [
        200,
        {
          tokens: [
            { ...TOKEN, expiresAt: '2026-12-27T00:00:00.000Z' },
            { ...TOKEN, id: 8, label: 'old pipeline', expiresAt: '2026-12-26T00:00:00.000Z' },
          ],
        },
      ]);
      await openAs('super_admin');
      const table = within(screen.getByRole('region', { name: 'Deploy tokens' })).getByRole('table', {
        name: 'Deploy tokens',
      });
      await within(table).findByRole('rowheader', { name: 'devices pipeline' });
      expect(within(table).getByRole('columnheader', { name: 'Valid through' })).toBeInTheDocument();
      const cells = (label: string) =>
        within(rowOf(table, label))
          .getAllByRole('cell')
          .map((cell) => cell.textContent);
      expect(cells('devices pipeline')[1]).toBe('26 Dec 2026 until 27 Dec 2026, 00:00 UTC');
      expect(cells('devices pipeline')[4]).toBe('Active');
      expect(cells('old pipeline')[1]).toBe('25 Dec 2026 until 26 Dec 2026, 00:00 UTC');
      expect(cells('old pipeline')[4]).toBe('Expired');
      expect(within(rowOf(table, 'devices pipeline')).getByText('26 Dec 2026')).toHaveAttribute(
        'datetime',
        '2026-12-26',
      );
    });

    test("the expiry starts at 90 days from today's UTC day, no earlier than today, and says when the token ends", async () => {
      await openAs('super_admin');
      const form = within(screen.getByRole('region', { name: 'Deploy tokens' })).getByRole('form', {
        name: 'Create a deploy token',
      });
      const expiry = within(form).getByLabelText('Expires on (last valid day)');
      expect(expiry).toHaveValue('2027-03-26');
      expect(expiry).toHaveAttribute('min', '2026-12-26');
      expect(expiry).toHaveAccessibleDescription(
        'It works through the end of that day in UTC, until 00:00 UTC the day after.',
      );
    });
  });

  test('Revoke asks for confirmation, then revokes', async () => {
    api.on('POST registry/tokens/7/revoke/', [200, {}]);
    const { user } = await openAs('super_admin');
    await user.click(await screen.findByRole('button', { name: 'Revoke the token devices pipeline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the token devices pipeline' });
    expect(dialog).toHaveTextContent('Pipelines using it can no longer deploy.');
    expect(api.requestsTo('POST registry/tokens/7/revoke/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.requestsTo('POST registry/tokens/7/revoke/')).toHaveLength(1));
    await waitFor(() => expect(api.requestsTo('GET registry/tokens/')).toHaveLength(2));
  });

  test("once a revoked token's row is gone, the focus is on the section's heading, not the page", async () => {
    let revoked = false;
    api
      .on('POST registry/tokens/7/revoke/', () => {
        revoked = true;
        return [200, {}];
      })
      .on('GET registry/tokens/', () => [200, { tokens: revoked ? [] : [TOKEN] }]);
    const { user } = await openAs('super_admin');
    await user.click(await screen.findByRole('button', { name: 'Revoke the token devices pipeline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the token devices pipeline' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.getByText('No deploy tokens')).toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Deploy tokens' })).toHaveFocus();
  });

  test('an origin must be https://host[:port]; one is added, and one is removed after confirmation', async () => {
    api.on('POST registry/origins/', [200, {}]).on('POST registry/origins/remove/', [200, {}]);
    const { user } = await openAs('super_admin');
    const origins = screen.getByRole('region', { name: 'Allowed origins' });
    const form = within(origins).getByRole('form', { name: 'Add an allowed origin' });
    await user.type(within(form).getByLabelText('Origin'), 'http://cdn.other.example/path');
    await user.click(within(form).getByRole('button', { name: 'Add origin' }));
    const field = within(form).getByLabelText('Origin');
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAccessibleDescription(
      /^A team's own CDN may serve a remote's versions from these origins only\. An origin is https:\/\/host or https:\/\/host:port/,
    );
    await user.clear(within(form).getByLabelText('Origin'));
    await user.type(within(form).getByLabelText('Origin'), 'https://cdn.other.example:8443');
    await user.click(within(form).getByRole('button', { name: 'Add origin' }));
    await waitFor(() =>
      expect(api.requestsTo('POST registry/origins/').map((r) => r.body)).toEqual([
        { origin: 'https://cdn.other.example:8443' },
      ]),
    );

    await user.click(await within(origins).findByRole('button', { name: 'Remove https://cdn.team.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove an allowed origin' });
    expect(dialog).toHaveTextContent('Remove https://cdn.team.example from the allowed origins?');
    expect(api.requestsTo('POST registry/origins/remove/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(api.requestsTo('POST registry/origins/remove/').map((r) => r.body)).toEqual([
        { origin: 'https://cdn.team.example' },
      ]),
    );
  });
});
