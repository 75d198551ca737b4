// scripts/deployment.cjs: where the remotes are announced, from configuration alone.
import path from 'node:path';
import REMOTES from '@veritas/shared/remotes.json';
import { repoRoot } from '../support/server';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const deployment = require(path.join(repoRoot, 'scripts/deployment.cjs')) as {
  remoteManifests(env: Record<string, string | undefined>): Record<string, string>;
  remoteOrigins(env: Record<string, string | undefined>): string[];
};

describe('remote manifests announced by /remotes.json', () => {
  test('by default each remote of remotes.json is on PORT plus its port offset, on HOST', () => {
    const manifests = deployment.remoteManifests({ PORT: '9000', HOST: '10.1.2.3' });
    expect(Object.keys(manifests)).toEqual(Object.keys(REMOTES));
    for (const [name, { portOffset }] of Object.entries(REMOTES)) {
      expect(manifests[name]).toBe(`http://10.1.2.3:${9000 + portOffset}/mf-manifest.json`);
    }
    expect(manifests.devices).toBe('http://10.1.2.3:9002/mf-manifest.json');
  });

  test('VERITAS_PUBLIC_HOST names the host browsers reach; a wildcard HOST alone means localhost', () => {
    expect(deployment.remoteManifests({ HOST: '0.0.0.0', VERITAS_PUBLIC_HOST: 'console.example' }).devices).toBe(
      'http://console.example:8082/mf-manifest.json',
    );
    expect(deployment.remoteManifests({ HOST: '0.0.0.0' }).devices).toBe('http://localhost:8082/mf-manifest.json');
    expect(deployment.remoteManifests({ HOST: '::1' }).devices).toBe('http://[::1]:8082/mf-manifest.json');
  });

  test('REMOTES_JSON replaces the convention, and the CSP origins follow it', () => {
    const remotes = {
      dashboard: 'https://cdn.example/dashboard/mf-manifest.json',
      devices: 'https://cdn.example/devices/mf-manifest.json',
    };
    const env = { REMOTES_JSON: JSON.stringify(remotes) };
    expect(deployment.remoteManifests(env)).toEqual(remotes);
    expect(deployment.remoteOrigins(env)).toEqual(['https://cdn.example']);
  });

  test('REMOTES_JSON that is not an object of absolute http(s) URLs is refused at start', () => {
    expect(() => deployment.remoteManifests({ REMOTES_JSON: '["x"]' })).toThrow('REMOTES_JSON must be a JSON object');
    expect(() => deployment.remoteManifests({ REMOTES_JSON: '{"devices":"/devices/mf-manifest.json"}' })).toThrow();
    expect(() => deployment.remoteManifests({ REMOTES_JSON: '{"devices":"javascript:alert(1)"}' })).toThrow(
      'absolute http(s) URL',
    );
  });
});
