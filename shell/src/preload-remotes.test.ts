// Preloading the remotes behind the menus (remotes.ts; docs/architecture.md#first-rows): only those
// whose pages the role may open, with those pages' modules; a dead remote is left to its page.
jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(),
  preloadRemote: jest.fn(),
  registerRemotes: jest.fn(),
}));

type Remotes = typeof import('./remotes');
type Runtime = { loadRemote: jest.Mock; preloadRemote: jest.Mock; registerRemotes: jest.Mock };

let remotes: Remotes;
let runtime: Runtime;

const LIVE = ['dashboard', 'devices', 'users', 'data', 'whitelabel', 'audit'];

beforeEach(async () => {
  await jest.isolateModulesAsync(async () => {
    remotes = await import('./remotes');
    runtime = (await import('@module-federation/enhanced/runtime')) as unknown as Runtime;
  });
  const list = Object.fromEntries(LIVE.map((name) => [name, { entry: `/remotes/${name}/1/mf-manifest.json` }]));
  globalThis.fetch = jest.fn(async () => ({
    ok: true,
    status: 200,
    json: async () => list,
  })) as unknown as typeof fetch;
  runtime.preloadRemote.mockResolvedValue(undefined);
  runtime.loadRemote.mockImplementation(async (id: string) => ({ default: id }));
});

afterEach(() => jest.restoreAllMocks());

const preloaded = () =>
  runtime.preloadRemote.mock.calls.map(([[args]]) => args).sort((a, b) => (a.nameOrAlias < b.nameOrAlias ? -1 : 1));

test("roles gate what is preloaded: an operator's menus offer no admin page, so its remotes are not fetched", async () => {
  await remotes.preloadRemotesOf('operators');
  expect(preloaded()).toEqual([
    { nameOrAlias: 'dashboard', exposes: ['Dashboard'] },
    { nameOrAlias: 'data', exposes: ['Download'] },
    { nameOrAlias: 'devices', exposes: ['ListDevices'] },
    { nameOrAlias: 'users', exposes: ['CreateUser', 'DeactivateUsers'] },
  ]);
});

test('an admin preloads every remote with all of its pages', async () => {
  await remotes.preloadRemotesOf('admin');
  expect(preloaded().map((args) => args.nameOrAlias)).toEqual([
    'audit',
    'dashboard',
    'data',
    'devices',
    'users',
    'whitelabel',
  ]);
  expect(preloaded().find((args) => args.nameOrAlias === 'data').exposes).toEqual(['Upload', 'Download']);
});

test('a remote that fails to preload takes nothing down, and its page loads it afresh', async () => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  runtime.preloadRemote.mockImplementation(async ([{ nameOrAlias }]: [{ nameOrAlias: string }]) => {
    if (nameOrAlias === 'devices') throw new Error('unreachable');
  });
  await expect(remotes.preloadRemotesOf('operators')).resolves.toBeUndefined();
  runtime.registerRemotes.mockClear();
  await remotes.loadRemoteModule('devices/ListDevices');
  // Registered anew (force), dropping what the runtime kept of the failed attempt.
  expect(runtime.registerRemotes).toHaveBeenCalledWith(
    [{ name: 'devices', entry: `${window.location.origin}/remotes/devices/1/mf-manifest.json` }],
    { force: true },
  );
});

test('without a way to know when the browser is idle, nothing is preloaded', () => {
  remotes.preloadRemotesWhenIdle('admin')();
  expect(runtime.preloadRemote).not.toHaveBeenCalled();
});
