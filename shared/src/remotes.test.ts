/**
 * @jest-environment node
 */
// remotes.json is the one list of the console's remotes (docs/architecture.md#adding-a-remote):
// each entry must match its package, and no other file may list the remotes again, so adding a
// remote is its entry plus its package.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import REMOTES from './remotes.json';
import { PAGE_AUDIENCES, ROUTE_ROLES, SHELL_PAGES } from './roles';

const root = path.resolve(__dirname, '../..');
const entries = Object.entries(REMOTES);
/** The list itself, and the lockfile, which names every workspace package. */
const LIST_FILES = [path.join(__dirname, 'remotes.json'), path.join(root, 'pnpm-lock.yaml')];

describe('remotes.json, the one list of remotes', () => {
  test.each(entries)('%s: its package exists and builds from this entry', (name, remote) => {
    const dir = path.join(root, remote.package);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string };
    expect(manifest.name).toBe(remote.package);
    expect(fs.readFileSync(path.join(dir, 'webpack.config.cjs'), 'utf8')).toContain(`remote: '${name}'`);
    for (const source of Object.values(remote.exposes)) expect(fs.existsSync(path.join(dir, source))).toBe(true);
  });

  test.each(entries)('%s: every page and command is an exposed module, open to a known audience', (_name, remote) => {
    const exposed = Object.keys(remote.exposes);
    for (const page of Object.values(remote.pages)) {
      expect(exposed).toContain(`./${page.module}`);
      expect(Object.keys(PAGE_AUDIENCES)).toContain(page.roles);
    }
    const commands: Record<string, string> = 'commands' in remote ? remote.commands : {};
    for (const module of Object.values(commands)) expect(exposed).toContain(`./${module}`);
  });

  test("port offsets are distinct and after the console port; routes, the shell's pages included, are distinct", () => {
    const offsets = entries.map(([, remote]) => remote.portOffset);
    expect(new Set(offsets).size).toBe(offsets.length);
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(1);
    const routes = entries.flatMap(([, remote]) => Object.keys(remote.pages));
    expect(new Set([...routes, ...Object.keys(SHELL_PAGES)]).size).toBe(
      routes.length + Object.keys(SHELL_PAGES).length,
    );
    expect(Object.keys(ROUTE_ROLES).sort()).toEqual([...routes, ...Object.keys(SHELL_PAGES)].sort());
  });

  test('no other source file lists the remotes', () => {
    const packages = entries.map(([, remote]) => remote.package);
    // The repo's files, tracked or new; what .gitignore leaves out (builds, data) is not source.
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => /\.(ts|tsx|js|cjs|mjs|json|ya?ml)$/.test(file))
      .map((file) => path.join(root, file))
      .filter((file) => !LIST_FILES.includes(file) && fs.existsSync(file));
    const listing = files
      .filter((file) => packages.filter((pkg) => fs.readFileSync(file, 'utf8').includes(pkg)).length > 1)
      .map((file) => path.relative(root, file));
    expect(listing).toEqual([]);
  });
});
