// webpack.factory.cjs names each remote's build (its uniqueName, the chunk-loading global) after a
// digest of what the build is made from. Of pnpm-lock.yaml it takes only what can change that build:
// the remote's own importer, the root's, the shell's and @veritas/shared's, the resolved packages
// and the settings. Another project joining the workspace (`pnpm create-remote`, whose install adds
// its importer) or changing its dependencies leaves every other remote's build as it was, so
// publishing unchanged sources again still answers `already published` (docs/deploying-a-remote.md).
import fs from 'node:fs';
import path from 'node:path';
import { lockfileForBuild, sourceDigest } from '../../webpack.factory.cjs';

const repoRoot = path.resolve(__dirname, '../..');
const LOCKFILE = fs.readFileSync(path.join(repoRoot, 'pnpm-lock.yaml'), 'utf8');

/** A lockfile (v9) as pnpm writes it, with the importers given (their entry's text after the key). */
function lockfile(importers: Record<string, string>, { packages = 'react@19.3.1', settings = 'true' } = {}): string {
  const entries = Object.entries(importers).map(([key, body]) => `  ${key}:\n${body}\n`);
  return [
    "lockfileVersion: '9.0'",
    '',
    'settings:',
    `  autoInstallPeers: ${settings}`,
    '',
    'importers:',
    '',
    entries.join('\n'),
    'packages:',
    '',
    `  ${packages}:`,
    '    resolution: {integrity: sha512-x}',
    '',
    'snapshots:',
    '',
    `  ${packages}: {}`,
    '',
  ].join('\n');
}

const dependency = (name: string, version: string) =>
  `    dependencies:\n      ${name}:\n        specifier: ${version}\n        version: ${version}`;

const WORKSPACE = {
  '.': dependency('webpack', '5.110.3'),
  'mfe-a': dependency('react', '19.3.1'),
  'mfe-b': dependency('chart.js', '4.5.1'),
  shared: dependency('zustand', '5.0.8'),
  shell: dependency('react', '19.3.1'),
};

describe("a remote's digest takes of the lockfile only what can change its build", () => {
  const base = lockfileForBuild(lockfile(WORKSPACE), 'mfe-a');

  test('not the other importers: one added (pnpm create-remote), or another remote’s changed', () => {
    expect(lockfileForBuild(lockfile({ ...WORKSPACE, 'mfe-aa': dependency('react', '19.3.1') }), 'mfe-a')).toBe(base);
    expect(lockfileForBuild(lockfile({ ...WORKSPACE, 'mfe-b': dependency('chart.js', '4.6.0') }), 'mfe-a')).toBe(base);
    const { 'mfe-b': _removed, ...withoutB } = WORKSPACE;
    expect(lockfileForBuild(lockfile(withoutB), 'mfe-a')).toBe(base);
    expect(lockfileForBuild(lockfile({ ...WORKSPACE, "'mfe-b''s'": dependency('x', '1.0.0') }), 'mfe-a')).toBe(base);
  });

  test('but its own importer, the root’s, the shell’s and shared’s, the resolved packages and the settings', () => {
    const changed = [
      lockfile({ ...WORKSPACE, 'mfe-a': dependency('react', '19.3.2') }),
      lockfile({ ...WORKSPACE, '.': dependency('webpack', '5.112.0') }),
      lockfile({ ...WORKSPACE, shell: dependency('react', '19.3.2') }),
      lockfile({ ...WORKSPACE, shared: dependency('zustand', '5.0.9') }),
      lockfile(WORKSPACE, { packages: 'react@19.3.2' }),
      lockfile(WORKSPACE, { settings: 'false' }),
    ];
    for (const lock of changed) expect(lockfileForBuild(lock, 'mfe-a')).not.toBe(base);
  });

  test('an importer whose key pnpm quotes is read as its path', () => {
    const quoted = lockfile({ ...WORKSPACE, "'mfe-b''s'": dependency('x', '1.0.0') });
    expect(lockfileForBuild(quoted, "mfe-b's")).toContain('"x":');
    expect(lockfileForBuild(quoted, 'mfe-b')).not.toContain('"x":');
  });

  test('a lockfile without importers counts whole', () => {
    const other = 'lockfileVersion: 5.4\n\nspecifiers:\n  react: 19.3.1\n\ndependencies:\n  react: 19.3.1\n';
    expect(JSON.parse(lockfileForBuild(other, 'mfe-a'))).toEqual({
      lockfileVersion: 5.4,
      specifiers: { react: '19.3.1' },
      dependencies: { react: '19.3.1' },
    });
  });
});

describe('the digest of a remote of the workspace (mfe-devices), from the lockfile of the repository', () => {
  const dir = path.join(repoRoot, 'mfe-devices');
  const digest = sourceDigest(dir);

  test('is the digest of that lockfile', () => {
    expect(digest).toMatch(/^[0-9a-f]{8}$/);
    expect(sourceDigest(dir, { lockfile: LOCKFILE })).toBe(digest);
  });

  test('stays when a new remote joins the workspace: its importer added to the lockfile', () => {
    // As pnpm install writes it after `pnpm create-remote qa-digest-x`: in order, among the others.
    const entry = /\n {2}mfe-whitelabel:\n[\s\S]*?\n\n/.exec(LOCKFILE)![0];
    const added = LOCKFILE.replace(entry, entry.replace('mfe-whitelabel:', 'mfe-qa-digest-x:') + entry.slice(1));
    expect(added).not.toBe(LOCKFILE);
    expect(sourceDigest(dir, { lockfile: added })).toBe(digest);
  });

  test('changes with its own importer', () => {
    const own = /\n {2}mfe-devices:\n[\s\S]*?\n\n/.exec(LOCKFILE)![0];
    const changed = LOCKFILE.replace(own, own.replace(/version: (\d)/, 'version: 9$1'));
    expect(changed).not.toBe(LOCKFILE);
    expect(sourceDigest(dir, { lockfile: changed })).not.toBe(digest);
  });
});
