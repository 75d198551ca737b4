// Builds of the devices remote that differ from the console's own, and the deploy command a team
// runs to publish one (scripts/deploy-remote.ts): for the registry's browser tests and benchmark.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './server';

/** The devices page's title in the console's own build. */
export const DEVICES_TITLE = 'Device Pick List';

/** The builds made so far, by title: the same sources build to the same files, so once is enough. */
const builds = new Map<string, string>();

/**
 * A production build of the devices remote whose page title reads `title`: mfe-devices copied
 * beside itself (its node_modules links resolve the same from there), the title changed in the
 * copy's sources, built with the remote's own configuration. The real folder is never touched.
 * Returns the copy's folder, whose dist/ holds the build.
 */
export function buildDevices(title: string): string {
  const built = builds.get(title);
  if (built) return built;
  const copy = fs.mkdtempSync(path.join(repoRoot, 'mfe-devices-build-'));
  builds.set(title, copy);
  fs.cpSync(path.join(repoRoot, 'mfe-devices'), copy, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => path.basename(source) !== 'dist',
  });
  for (const file of ['list-devices.tsx', 'paged-device-list.tsx']) {
    const source = path.join(copy, 'src', file);
    fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace(`>${DEVICES_TITLE}<`, `>${title}<`));
  }
  const webpack = require.resolve('webpack/bin/webpack.js', { paths: [path.join(repoRoot, 'mfe-devices')] });
  const run = spawnSync(process.execPath, [webpack, '--mode', 'production'], { cwd: copy, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the build failed:\n${run.stdout}\n${run.stderr}`);
  return copy;
}

/** Removes the folders buildDevices made. */
export function removeBuilds(): void {
  for (const copy of builds.values()) fs.rmSync(copy, { recursive: true, force: true });
  builds.clear();
}

/** The deploy command run from `folder` against `console`, without building: its output and exit code. */
export function deploy(console: string, folder: string, token: string, ...flags: string[]) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'scripts/deploy-remote.ts'), '--to', console, '--no-build', ...flags],
    { cwd: folder, encoding: 'utf8', env: { ...process.env, VERITAS_DEPLOY_TOKEN: token } },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
