// The load-time compatibility check (compatibility-plugin.ts, docs/architecture.md#loading-error-card-and-retry):
// a remote's manifest is checked against what this console provides when the runtime loads it.
import { screen } from '@testing-library/react';
import type { MockApi } from '@veritas/shared/testing';
import { IncompatibleRemoteError } from '@veritas/shared/remote-compatibility';
import compatibilityPlugin, { providedShared, setUsedModules } from './compatibility-plugin';
import { mockedLoadRemote, renderShell, serveComposition, signedInAs, startApi } from '../test/harness';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

type Hook = (args: object) => Promise<object>;
const hook = compatibilityPlugin().loadRemoteSnapshot as unknown as Hook;

/** The shell's federation options as the runtime passes them: its own shared packages. */
const SHELL_OPTIONS = {
  name: 'shell',
  remotes: [],
  plugins: [],
  inBrowser: true,
  shared: {
    react: [{ version: '19.3.1', from: 'shell' }],
    '@veritas/shared': [{ version: '1.0.0', from: 'shell' }],
  },
};

/** An mf-manifest.json of the devices remote needing `sharedRange` of @veritas/shared. */
function devicesManifest(sharedRange = '^1.0.0', exposes = ['./ListDevices']) {
  return {
    name: 'devices',
    metaData: { remoteEntry: { name: 'remoteEntry.1234abcd.js', path: '' } },
    shared: [
      { name: 'react', version: '19.3.1', requiredVersion: '^19.3.1', singleton: true },
      { name: '@veritas/shared', version: '1.0.0', requiredVersion: sharedRange, singleton: true },
    ],
    exposes: exposes.map((path) => ({ name: path.slice(2), path })),
  };
}

function snapshotArgs(manifestJson: object | undefined) {
  return {
    options: SHELL_OPTIONS,
    moduleInfo: { name: 'devices', entry: 'http://localhost/remotes/devices/0123/mf-manifest.json' },
    manifestJson,
    manifestUrl: 'http://localhost/remotes/devices/0123/mf-manifest.json',
    remoteSnapshot: { version: 'http://localhost/remotes/devices/0123/mf-manifest.json' },
    from: manifestJson ? 'manifest' : 'global',
  };
}

test('a compatible manifest passes: the hook answers its arguments unchanged', async () => {
  const args = snapshotArgs(devicesManifest());
  await expect(hook(args)).resolves.toBe(args);
});

test('a manifest the console cannot run makes the load fail with an error naming each problem', async () => {
  // What the composition loads of devices (remotes.ts tells the plugin as it registers the remote).
  setUsedModules('devices', ['./ListDevices', './DetailsSection']);
  const load = hook(snapshotArgs(devicesManifest('^2.0.0', ['./ListDevices'])));
  await expect(load).rejects.toThrow(IncompatibleRemoteError);
  await expect(load).rejects.toThrow(
    'The build of "devices" cannot run in this console: it needs @veritas/shared ^2.0.0, the console provides 1.0.0; it does not expose ./DetailsSection, which its remote.json names.',
  );
});

test('a snapshot read from the global store (no manifest loaded now) passes unchecked', async () => {
  const args = snapshotArgs(undefined);
  await expect(hook(args)).resolves.toBe(args);
});

test("what the console provides is its federation instance's own shared configuration, name → version", () => {
  expect(
    providedShared({
      ...SHELL_OPTIONS,
      shared: {
        ...SHELL_OPTIONS.shared,
        zustand: [
          { version: '4.0.0', from: 'devices' },
          { version: '5.1.0', from: 'shell' },
        ],
      },
    } as never),
  ).toEqual({ react: '19.3.1', '@veritas/shared': '1.0.0', zustand: '5.1.0' });
});

describe('in the console', () => {
  let api: MockApi;
  beforeEach(() => {
    api = signedInAs(startApi(), 'admin');
    serveComposition();
  });
  afterEach(() => api.restore());

  test("an incompatible remote's page shows the error card, never a half-working page", async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    // The runtime reads the manifest, then runs the plugin's hook before any of the remote's code.
    mockedLoadRemote.mockImplementation(async () => {
      await hook(snapshotArgs(devicesManifest('^2.0.0')));
      return { default: () => <h1>half-working page</h1> };
    });
    renderShell('/ListDevices');
    expect(await screen.findByRole('alert')).toHaveTextContent('Stats could not be loaded');
    expect(screen.queryByText('half-working page')).not.toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Stats could not be loaded', expect.any(IncompatibleRemoteError));
    log.mockRestore();
  });
});
