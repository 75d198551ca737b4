// Where remotes are loaded from (remotes.ts, composition.ts, page-codes.ts;
// docs/architecture.md#locating-remotes): the composition's locations are used while fresh, read
// again after a rollout (live event `remotes`) or after 60 s, and a changed entry is registered
// anew and gets new page components.
import { act, render, screen, within } from '@testing-library/react';
import {
  Slot,
  useComposition,
  useSession,
  type ComposedPage,
  type Composition,
  type RemoteEntry,
} from '@veritas/shared';
import { FakeEventSource, withFakeLiveStream } from '@veritas/shared/testing';
import { Suspense, type ComponentType } from 'react';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

type Remotes = typeof import('./remotes');
type PageCodes = typeof import('./page-codes');
type CompositionSource = typeof import('./composition');
type Runtime = { loadRemote: jest.Mock; registerRemotes: jest.Mock };

// Each test starts with a shell that has read nothing yet.
let remotes: Remotes;
let codes: PageCodes;
let source: CompositionSource;
let runtime: Runtime;
let now: number;

beforeEach(async () => {
  useComposition.setState({ composition: null, loadModule: null });
  await jest.isolateModulesAsync(async () => {
    remotes = await import('./remotes');
    codes = await import('./page-codes');
    source = await import('./composition');
    runtime = (await import('@module-federation/enhanced/runtime')) as unknown as Runtime;
  });
  // Each load answers a page naming the entry it was registered under.
  runtime.loadRemote.mockImplementation(async (id: string) => {
    const calls = runtime.registerRemotes.mock.calls;
    const entry = calls[calls.length - 1][0][0].entry as string;
    return { default: () => <h1>{`${id} from ${entry}`}</h1> };
  });
  now = 1_000_000;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});

afterEach(() => jest.restoreAllMocks());

/** A composition for the signed-in user with `remotes` and nothing else but `changes`. */
function composition(remotes: Record<string, RemoteEntry>, changes: Partial<Composition> = {}): Composition {
  const viewer = useSession.getState().user;
  return {
    viewer,
    remotes,
    pages: [],
    menus: [],
    extensions: [],
    unavailable: [],
    home: null,
    features: [],
    ...changes,
  };
}

/** GET /remotes.json answers compositions of `remotes` in turn (the last one again and again). */
function serveLists(...lists: Record<string, RemoteEntry>[]): jest.Mock {
  const fetchMock = jest.fn(async () => {
    const list = lists.length > 1 ? lists.shift()! : lists[0]!;
    return { ok: true, status: 200, json: async () => composition(list) };
  });
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

const DEVICES_PAGE: ComposedPage = { path: 'ListDevices', remote: 'devices', module: './ListDevices', title: 'Stats' };
const V3 = { entry: '/remotes/devices/3333333333333333/mf-manifest.json', version: 3, integrity: 'sha384-v3' };
const V4 = { entry: '/remotes/devices/4444444444444444/mf-manifest.json', version: 4, integrity: 'sha384-v4' };
const origin = window.location.origin;

/** Renders `Page` and waits until it shows its heading; answers that heading. */
async function show(Page: ComponentType, testId: string) {
  render(
    <Suspense fallback={<p>Loading…</p>}>
      <section data-testid={testId}>
        <Page />
      </section>
    </Suspense>,
  );
  return within(await screen.findByTestId(testId)).findByRole('heading');
}

test('a relative entry is resolved against the console origin, not against the page path', async () => {
  window.history.pushState({}, '', '/deep/path/ListDevices');
  serveLists({ devices: { entry: 'remotes/devices/3333333333333333/mf-manifest.json', version: 3 } });
  await remotes.loadRemoteModule('devices/ListDevices');
  expect(runtime.registerRemotes).toHaveBeenCalledWith(
    [{ name: 'devices', entry: `${origin}/remotes/devices/3333333333333333/mf-manifest.json` }],
    { force: false },
  );
  expect(source.resolveEntry('https://cdn.example.com/devices/mf-manifest.json')).toBe(
    'https://cdn.example.com/devices/mf-manifest.json',
  );
  expect(source.resolveEntry('javascript:alert(1)')).toBeNull();
  window.history.pushState({}, '', '/');
});

describe('an answer of /remotes.json', () => {
  test('that is no composition (the older list of remotes, a list, null) is not one', () => {
    expect(source.readComposition({ devices: { entry: '/remotes/devices/1/mf-manifest.json' } })).toBeNull();
    expect(source.readComposition([])).toBeNull();
    expect(source.readComposition(null)).toBeNull();
    expect(source.readComposition({ ...composition({}), pages: {} })).toBeNull();
  });

  test('has each entry resolved; one that is no http(s) URL leaves its remote out', () => {
    const read = source.readComposition(composition({ devices: V3, evil: { entry: 'javascript:alert(1)' } }));
    expect(read?.remotes).toEqual({ devices: { ...V3, entry: origin + V3.entry } });
  });

  test('that is no composition fails the load', async () => {
    const fetchMock = jest.fn(async () => ({ ok: true, status: 200, json: async () => ({ devices: V3 }) }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    await expect(remotes.loadRemoteModule('devices/ListDevices')).rejects.toThrow(
      '/remotes.json did not answer a composition',
    );
    expect(runtime.registerRemotes).not.toHaveBeenCalled();
  });
});

test('while fresh, the composition is read once; older than 60 s it is read again before the next load', async () => {
  const list = serveLists({ devices: V3 });
  await remotes.loadRemoteModule('devices/ListDevices');
  now += 59_000;
  await remotes.loadRemoteModule('devices/ListDevices');
  expect(list).toHaveBeenCalledTimes(1);
  expect(remotes.knownLocation('devices')).toEqual({ ...V3, entry: origin + V3.entry });

  now += 2_000;
  expect(remotes.knownLocation('devices')).toBeNull();
  await remotes.loadRemoteModule('devices/ListDevices');
  expect(list).toHaveBeenCalledTimes(2);
  // The same entry: registered once, not again.
  expect(runtime.registerRemotes).toHaveBeenCalledTimes(1);
});

describe('a rollout announced live', () => {
  withFakeLiveStream();

  test('a remotes event (any remote) makes the composition stale: the next navigation reads it again', async () => {
    act(() =>
      useSession.getState().setSession({ user: 'asha', role: 'admin', hubCode: null, features: ['live-events'] }),
    );
    act(() => FakeEventSource.latest!.open());
    const list = serveLists({ devices: V3 });
    await remotes.loadRemoteModule('devices/ListDevices');
    expect(remotes.knownLocation('devices')).not.toBeNull();

    act(() => FakeEventSource.latest!.emit('remotes', { remote: 'users' }, 7));
    expect(remotes.knownLocation('devices')).toBeNull();
    await remotes.loadRemoteModule('devices/ListDevices');
    expect(list).toHaveBeenCalledTimes(2);
  });
});

test('a new entry is registered anew with force and its pages get a new lazy component; a page shown keeps its version', async () => {
  const list = serveLists({ devices: V3 }, { devices: V4 });
  // First navigation: nothing read yet, so the page reads the list first.
  const first = codes.pageCode(DEVICES_PAGE).component;
  const shown = await show(first, 'shown');
  expect(shown).toHaveTextContent(`devices/ListDevices from ${origin}${V3.entry}`);
  // Fresh: the next navigation takes the component of that entry at once.
  const v3Page = codes.pageCode(DEVICES_PAGE).component;
  expect(codes.pageCode(DEVICES_PAGE).component).toBe(v3Page);

  source.markCompositionStale();
  const next = codes.pageCode(DEVICES_PAGE).component;
  expect(next).not.toBe(v3Page);
  const opened = await show(next, 'opened');
  expect(list).toHaveBeenCalledTimes(2);
  expect(runtime.registerRemotes).toHaveBeenLastCalledWith([{ name: 'devices', entry: origin + V4.entry }], {
    force: true,
  });
  expect(opened).toHaveTextContent(`devices/ListDevices from ${origin}${V4.entry}`);
  expect(shown).toHaveTextContent(`devices/ListDevices from ${origin}${V3.entry}`);
  expect(shown).toBeInTheDocument();
  const v4Page = codes.pageCode(DEVICES_PAGE).component;
  expect(v4Page).not.toBe(v3Page);
  expect(codes.pageCode(DEVICES_PAGE).component).toBe(v4Page);
});

test("a registration hands the entry's integrity to the integrity plugin", async () => {
  const setEntryIntegrity = jest.fn();
  await jest.isolateModulesAsync(async () => {
    jest.doMock('./integrity-plugin', () => ({ setEntryIntegrity }));
    remotes = await import('./remotes');
    runtime = (await import('@module-federation/enhanced/runtime')) as unknown as Runtime;
  });
  runtime.loadRemote.mockResolvedValue({ default: () => null });
  serveLists({ devices: V3, users: { entry: 'https://cdn.example.com/users/mf-manifest.json' } });
  await remotes.loadRemoteModule('devices/ListDevices');
  await remotes.loadRemoteModule('users/CreateUser');
  expect(setEntryIntegrity).toHaveBeenCalledWith('devices', origin + V3.entry, 'sha384-v3');
  expect(setEntryIntegrity).toHaveBeenCalledWith('users', 'https://cdn.example.com/users/mf-manifest.json', undefined);
  jest.dontMock('./integrity-plugin');
});

test('the load-time check is told the modules of the remote that the composition uses: pages, commands, extensions', async () => {
  const setUsedModules = jest.fn();
  await jest.isolateModulesAsync(async () => {
    jest.doMock('./compatibility-plugin', () => ({ setUsedModules }));
    remotes = await import('./remotes');
    runtime = (await import('@module-federation/enhanced/runtime')) as unknown as Runtime;
  });
  runtime.loadRemote.mockResolvedValue({ default: () => null });
  const fetchMock = jest.fn(async () => ({
    ok: true,
    status: 200,
    json: async () =>
      composition(
        { data: V3, devices: V4 },
        {
          pages: [{ path: 'Upload', remote: 'data', module: './Upload', title: 'Upload' }, DEVICES_PAGE],
          menus: [
            { menu: 'Data', label: 'Upload', remote: 'data', page: 'Upload' },
            { menu: 'Data', label: 'Download APK', remote: 'data', command: './downloadApk' },
          ],
          extensions: [{ slot: 'dashboard.tile', remote: 'data', module: './UploadTile' }],
        },
      ),
  }));
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  await remotes.loadRemoteModule('data/Upload');
  expect(setUsedModules).toHaveBeenCalledWith('data', ['./Upload', './downloadApk', './UploadTile']);
  jest.dontMock('./compatibility-plugin');
});

test("slots load their extensions the way pages load: the shell provides the loader, which registers the remote and loads '<remote>/<module>'", async () => {
  serveLists({ devices: V3 });
  const loadModule = useComposition.getState().loadModule!;
  const module = await loadModule('devices', './DetailsSection');
  expect(module).toHaveProperty('default');
  expect(runtime.registerRemotes).toHaveBeenCalledWith([{ name: 'devices', entry: origin + V3.entry }], {
    force: false,
  });
  expect(runtime.loadRemote).toHaveBeenCalledWith('devices/DetailsSection');
});

describe('a remote whose files never answer (the server takes the connection, and nothing comes)', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['Date'] }));
  afterEach(() => jest.useRealTimers());

  /** The runtime's first load of each module never ends; the ones after it answer. */
  function hangFirstLoads() {
    const answer = runtime.loadRemote.getMockImplementation()!;
    const asked = new Set<string>();
    runtime.loadRemote.mockImplementation((id: string) => {
      if (asked.has(id)) return answer(id);
      asked.add(id);
      return new Promise(() => {});
    });
  }

  test('a load fails after REMOTE_LOAD_LIMIT_MS (20 s); the next one reads /remotes.json again and registers the remote with force, so nothing of the hung load is waited on', async () => {
    const { REMOTE_LOAD_LIMIT_MS } = remotes;
    const list = serveLists({ devices: V3 });
    hangFirstLoads();
    const load = remotes.loadRemoteModule('devices/ListDevices');
    const failure = expect(load).rejects.toThrow('devices/ListDevices did not load within 20 s');
    await jest.advanceTimersByTimeAsync(REMOTE_LOAD_LIMIT_MS - 1);
    expect(remotes.knownLocation('devices')).not.toBeNull();
    await jest.advanceTimersByTimeAsync(1);
    await failure;
    expect(remotes.knownLocation('devices')).toBeNull();

    await expect(remotes.loadRemoteModule('devices/ListDevices')).resolves.toHaveProperty('default');
    expect(list).toHaveBeenCalledTimes(2);
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith([{ name: 'devices', entry: origin + V3.entry }], {
      force: true,
    });
  });

  test("the remote's scripts still loading leave the document: a new load asks for them again rather than join them", async () => {
    serveLists({ devices: V3, users: V4 });
    hangFirstLoads();
    const script = (src: string) => document.head.appendChild(Object.assign(document.createElement('script'), { src }));
    const hung = script(`${origin}/remotes/devices/3333333333333333/608.1c205dcd.js`);
    const others = script(`${origin}/remotes/devices/4444444444444444/608.1c205dcd.js`);
    const failure = expect(remotes.loadRemoteModule('devices/ListDevices')).rejects.toThrow('did not load');
    await jest.advanceTimersByTimeAsync(remotes.REMOTE_LOAD_LIMIT_MS);
    await failure;
    expect(hung).not.toBeInTheDocument();
    expect(others).toBeInTheDocument();
    others.remove();
  });

  test("a slot's extension of such a remote renders nothing while it hangs and after its limit; the page around it shows at once", async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    serveLists({ devices: V3 });
    await source.refreshComposition();
    useComposition.setState((state) => ({
      composition: {
        ...state.composition!,
        extensions: [{ slot: 'dashboard.tile', remote: 'devices', module: './DeviceTile' }],
      },
    }));
    hangFirstLoads();
    render(
      <section data-testid="host">
        <h1>Dashboard</h1>
        <Slot name="dashboard.tile" props={{ hub: 'all', timeframe: 'today' }} />
      </section>,
    );
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(runtime.loadRemote).toHaveBeenCalledWith('devices/DeviceTile');
    expect(screen.getByTestId('host')).toHaveTextContent(/^Dashboard$/);
    await act(() => jest.advanceTimersByTimeAsync(remotes.REMOTE_LOAD_LIMIT_MS));
    expect(log).toHaveBeenCalledWith(
      'The extension devices/DeviceTile could not be loaded',
      expect.objectContaining({ name: 'RemoteLoadTimeoutError' }),
    );
    expect(screen.getByTestId('host')).toHaveTextContent(/^Dashboard$/);
  });
});
