import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MockApi } from '@veritas/shared/testing';
import {
  COMPOSITION_REMOTES,
  mockedLoadRemote,
  mockedRegisterRemotes,
  renderShell,
  serveComposition,
  signedInAs,
  startApi,
} from '../test/harness';
import { REMOTE_LOAD_LIMIT_MS } from './remotes';
import retryPlugin from './retry-plugin';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

// Each test uses its own remote: the shell keeps loaded remotes for the whole session.
let api: MockApi;
let log: jest.SpyInstance;

beforeEach(() => {
  api = signedInAs(startApi(), 'admin');
  log = jest.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  api.restore();
  log.mockRestore();
});

const page = (id: string) => ({ default: () => <h1>{id} page</h1> });

test('a loading state shows while the remote comes, then the page', async () => {
  serveComposition();
  let arrive!: (module: unknown) => void;
  mockedLoadRemote.mockImplementation((id: string) =>
    id === 'devices/ListDevices' ? new Promise((resolve) => (arrive = resolve)) : Promise.resolve(page(id)),
  );
  renderShell('/ListDevices');

  expect(await screen.findByText('Loading Stats…')).toBeInTheDocument();
  await waitFor(() => expect(mockedLoadRemote).toHaveBeenCalledWith('devices/ListDevices'));
  arrive(page('devices/ListDevices'));

  expect(await screen.findByRole('heading', { name: 'devices/ListDevices page' })).toBeInTheDocument();
  expect(mockedRegisterRemotes).toHaveBeenCalledWith([{ name: 'devices', entry: COMPOSITION_REMOTES.devices.entry }], {
    force: false,
  });
});

test('a remote that is down shows an error card with Retry, while menus, other routes and logout keep working', async () => {
  serveComposition();
  mockedLoadRemote.mockImplementation(async (id: string) => {
    if (id.startsWith('users/')) throw new Error('Failed to fetch mf-manifest.json');
    return page(id);
  });
  const user = userEvent.setup();
  renderShell('/createuser');

  const card = await screen.findByRole('alert');
  expect(card).toHaveTextContent('Create User could not be loaded');
  // In place of the page, the card's title is the page's level-one heading (docs/screens.md#navigation).
  expect(within(card).getByRole('heading', { level: 1 })).toHaveTextContent('Create User could not be loaded');
  expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Data' }));
  await user.click(screen.getByRole('menuitem', { name: 'Upload' }));
  expect(await screen.findByRole('heading', { name: 'data/Upload page' })).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Logout' })).toBeEnabled();
});

test('Retry re-reads /remotes.json, re-registers the remote with force (no cached failure) and loads again', async () => {
  const remoteList = serveComposition();
  let down = true;
  mockedLoadRemote.mockImplementation(async (id: string) => {
    if (id === 'whitelabel/WhiteLabel' && down) throw new Error('ScriptExternalLoadError');
    return page(id);
  });
  const user = userEvent.setup();
  renderShell('/WhiteLabel');
  await screen.findByText('White Label could not be loaded');
  const listReads = remoteList.mock.calls.length;

  down = false;
  await user.click(screen.getByRole('button', { name: 'Retry' }));

  expect(await screen.findByRole('heading', { name: 'whitelabel/WhiteLabel page' })).toBeInTheDocument();
  expect(remoteList.mock.calls.length).toBe(listReads + 1);
  expect(mockedRegisterRemotes).toHaveBeenLastCalledWith(
    [{ name: 'whitelabel', entry: COMPOSITION_REMOTES.whitelabel.entry }],
    {
      force: true,
    },
  );
  expect(mockedLoadRemote.mock.calls.filter(([id]) => id === 'whitelabel/WhiteLabel')).toHaveLength(2);
});

test(`a remote whose files never answer shows the error card after REMOTE_LOAD_LIMIT_MS (${REMOTE_LOAD_LIMIT_MS / 1000} s), and Retry loads it afresh rather than wait on the hung load`, async () => {
  jest.useFakeTimers();
  try {
    const remoteList = serveComposition();
    mockedLoadRemote.mockImplementation((id: string) =>
      id === 'audit/AuditLog' && mockedLoadRemote.mock.calls.filter(([asked]) => asked === id).length === 1
        ? new Promise(() => {})
        : Promise.resolve(page(id)),
    );
    const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
    renderShell('/AuditLog');
    expect(await screen.findByText('Loading Audit Log…')).toBeInTheDocument();
    await waitFor(() => expect(mockedLoadRemote).toHaveBeenCalledWith('audit/AuditLog'));

    await act(() => jest.advanceTimersByTimeAsync(REMOTE_LOAD_LIMIT_MS));
    expect(screen.getByRole('alert')).toHaveTextContent('Audit Log could not be loaded');
    expect(screen.queryByText('Loading Audit Log…')).not.toBeInTheDocument();
    const listReads = remoteList.mock.calls.length;

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'audit/AuditLog page' })).toBeInTheDocument();
    expect(remoteList.mock.calls.length).toBe(listReads + 1);
    expect(mockedRegisterRemotes).toHaveBeenLastCalledWith(
      [{ name: 'audit', entry: COMPOSITION_REMOTES.audit.entry }],
      {
        force: true,
      },
    );
    expect(mockedLoadRemote.mock.calls.filter(([id]) => id === 'audit/AuditLog')).toHaveLength(2);
  } finally {
    jest.useRealTimers();
  }
});

describe('a remote that fails to load is loaded once more on its own (retry-plugin.ts)', () => {
  /** What the Module Federation runtime asks of the shell's retry plugin. */
  interface RetryHooks {
    fetch(url: string, init: RequestInit): Promise<unknown>;
    loadEntryError(args: {
      getRemoteEntry: () => Promise<unknown>;
      remoteInfo: { name: string };
      globalLoading: object;
      uniqueKey: string;
    }): Promise<unknown>;
  }

  /** /remotes.json, and each remote's manifest answering `statuses` in turn (then 200). */
  function serveManifests(statuses: number[]): jest.Mock {
    const remoteList = serveComposition();
    const manifest = jest.fn(async (_url: string) => {
      const status = statuses.shift() ?? 200;
      return { ok: status === 200, status, clone: () => ({ json: async () => ({}) }), json: async () => ({}) };
    });
    globalThis.fetch = jest.fn((url: string) =>
      url === '/remotes.json' ? remoteList() : manifest(url),
    ) as unknown as typeof fetch;
    return manifest;
  }

  /**
   * The runtime, as far as loading goes: the manifest through the plugin's fetch hook, then the
   * entry script, whose failed load the plugin's loadEntryError may recover.
   */
  function loadWith(entryScript: jest.Mock) {
    const plugin = retryPlugin() as unknown as RetryHooks;
    mockedLoadRemote.mockImplementation(async (id: string) => {
      const name = id.slice(0, id.indexOf('/')) as keyof typeof COMPOSITION_REMOTES;
      await plugin.fetch(COMPOSITION_REMOTES[name].entry, {});
      await entryScript().catch(() =>
        plugin.loadEntryError({
          getRemoteEntry: entryScript,
          remoteInfo: { name },
          globalLoading: {},
          uniqueKey: name,
        }),
      );
      return page(id);
    });
  }

  const ok = () => jest.fn(async () => ({}));
  const failingTimes = (n: number) => {
    let calls = 0;
    return jest.fn(async () => {
      if (++calls <= n) throw new Error('ScriptNetworkError: Failed to load script');
      return {};
    });
  };

  test('a manifest answered 503 once: the page shows, with no error card', async () => {
    const manifest = serveManifests([503]);
    loadWith(ok());
    renderShell('/Dashboard');
    expect(
      await screen.findByRole('heading', { name: 'dashboard/Dashboard page' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(manifest.mock.calls.map(([url]) => url)).toEqual([
      COMPOSITION_REMOTES.dashboard.entry,
      COMPOSITION_REMOTES.dashboard.entry,
    ]);
    expect(log).not.toHaveBeenCalled();
  });

  test('an entry script that fails once is loaded again at once: the page shows, with no error card', async () => {
    serveManifests([]);
    const entryScript = failingTimes(1);
    loadWith(entryScript);
    renderShell('/Download');
    expect(await screen.findByRole('heading', { name: 'data/Download page' })).toBeInTheDocument();
    expect(entryScript).toHaveBeenCalledTimes(2);
    expect(log).not.toHaveBeenCalled();
  });

  test('a remote still down after its retry shows the error card, and Retry loads it again', async () => {
    const manifest = serveManifests([503, 503]);
    const entryScript = failingTimes(2);
    loadWith(entryScript);
    const user = userEvent.setup();
    renderShell('/Deactivateuser');
    expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toHaveTextContent(
      'Deactivate User could not be loaded',
    );
    expect(manifest).toHaveBeenCalledTimes(2);
    expect(entryScript).not.toHaveBeenCalled();

    // The manifest comes back, the entry script fails twice: the card again.
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(entryScript).toHaveBeenCalledTimes(2));
    expect(await screen.findByRole('alert')).toHaveTextContent('Deactivate User could not be loaded');

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'users/DeactivateUsers page' })).toBeInTheDocument();
    expect(entryScript).toHaveBeenCalledTimes(3);
  });
});
