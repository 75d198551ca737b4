// scripts/deployment.cjs: where the remotes are announced, from configuration alone.
import path from 'node:path';
import { repoRoot } from '../support/server';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const deployment = require(path.join(repoRoot, 'scripts/deployment.cjs')) as {
  configuredRemotes(env: Record<string, string | undefined>): Record<string, string> | null;
  remoteOrigins(env: Record<string, string | undefined>): string[];
};

describe('remote manifests announced by /remotes.json', () => {
  test('by default the registry decides: no fixed list, no remote origin in the CSP', () => {
    expect(deployment.configuredRemotes({ PORT: '9000', HOST: '10.1.2.3' })).toBeNull();
    expect(deployment.remoteOrigins({ PORT: '9000' })).toEqual([]);
  });

  test('REMOTES_JSON replaces the registry, and the CSP origins follow it', () => {
    const remotes = {
      dashboard: 'https://cdn.example/dashboard/mf-manifest.json',
      devices: 'https://cdn.example/devices/mf-manifest.json',
    };
    const env = { REMOTES_JSON: JSON.stringify(remotes) };
    expect(deployment.configuredRemotes(env)).toEqual(remotes);
    expect(deployment.remoteOrigins(env)).toEqual(['https://cdn.example']);
  });

  test('REMOTES_JSON that is not an object of absolute http(s) URLs is refused at start', () => {
    expect(() => deployment.configuredRemotes({ REMOTES_JSON: '["x"]' })).toThrow('REMOTES_JSON must be a JSON object');
    expect(() => deployment.configuredRemotes({ REMOTES_JSON: '{"devices":"/devices/mf-manifest.json"}' })).toThrow();
    expect(() => deployment.configuredRemotes({ REMOTES_JSON: '{"devices":"javascript:alert(1)"}' })).toThrow(
      'absolute http(s) URL',
    );
  });
});
