import { compatibilityProblems, contractOf, readManifest, sharedOf } from './remote-compatibility';

const CONSOLE = { react: '19.3.1', 'react-dom': '19.3.1', '@veritas/shared': '1.4.0', zustand: '5.1.0' };

function manifest(overrides: { shared?: Record<string, string>; exposes?: string[]; name?: string } = {}) {
  const shared = overrides.shared ?? { react: '^19.3.1', '@veritas/shared': '^1.0.0' };
  return {
    id: overrides.name ?? 'devices',
    name: overrides.name ?? 'devices',
    metaData: { remoteEntry: { name: 'remoteEntry.abcd1234.js', path: '' }, publicPath: 'auto' },
    shared: Object.entries(shared).map(([name, requiredVersion]) => ({
      name,
      version: requiredVersion.replace(/^\^/, ''),
      requiredVersion,
      singleton: true,
    })),
    exposes: (overrides.exposes ?? ['./ListDevices']).map((path) => ({ name: path.slice(2), path })),
    remotes: [],
  };
}

describe('the compatibility gate (docs/deploying-a-remote.md#the-gate)', () => {
  test('a build within every range the console provides, exposing what it routes to, passes', () => {
    expect(compatibilityProblems('devices', manifest(), CONSOLE)).toEqual([]);
  });

  test('a newer contract is named with the version the console provides', () => {
    const built = manifest({ shared: { '@veritas/shared': '^2.0.0' } });
    expect(compatibilityProblems('devices', built, CONSOLE)).toEqual([
      'needs @veritas/shared ^2.0.0, the console provides 1.4.0',
    ]);
    // A newer minor of the contract needs exports the console's does not have either.
    expect(compatibilityProblems('devices', manifest({ shared: { '@veritas/shared': '^1.5.0' } }), CONSOLE)).toEqual([
      'needs @veritas/shared ^1.5.0, the console provides 1.4.0',
    ]);
  });

  test('a shared singleton out of range is named', () => {
    const built = manifest({ shared: { react: '^18.2.0', '@veritas/shared': '^1.0.0' } });
    expect(compatibilityProblems('devices', built, CONSOLE)).toEqual([
      'needs react ^18.2.0, the console provides 19.3.1',
    ]);
  });

  test('a package the console does not provide is the build’s own', () => {
    const built = manifest({ shared: { lodash: '^4.0.0', '@veritas/shared': '^1.0.0' } });
    expect(compatibilityProblems('devices', built, CONSOLE)).toEqual([]);
  });

  test('a module its declaration names but the build does not expose is named', () => {
    expect(compatibilityProblems('devices', manifest({ exposes: ['./Other'] }), CONSOLE, ['./ListDevices'])).toEqual([
      'does not expose ./ListDevices, which its remote.json names',
    ]);
    expect(compatibilityProblems('devices', manifest({ exposes: ['./Other'] }), CONSOLE)).toEqual([]);
  });

  test('another remote’s build, a bad range or no manifest at all are refused', () => {
    expect(compatibilityProblems('devices', manifest({ name: 'users' }), CONSOLE)[0]).toBe(
      'is the build of "users", not of "devices"',
    );
    expect(compatibilityProblems('devices', manifest({ shared: { react: 'not a range' } }), CONSOLE)).toEqual([
      'gives react the range "not a range", which is not one',
    ]);
    expect(compatibilityProblems('devices', { hello: 1 }, CONSOLE)).toEqual([
      'is not a Module Federation manifest (mf-manifest.json)',
    ]);
    expect(readManifest(null)).toBeNull();
  });

  test('the console’s own manifest tells what it provides; a build names its contract', () => {
    expect(sharedOf(manifest())).toEqual({ react: '19.3.1', '@veritas/shared': '1.0.0' });
    expect(contractOf(readManifest(manifest())!)).toBe('1.0.0');
  });
});
