// Builds the packages whose output is missing or older than their sources: what `pnpm start` and
// `pnpm start:fleet` run before serving.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { workspaceRemotes } = createRequire(import.meta.url)('./workspace-remotes.cjs');

/** Newest modification time under the given files/folders (node_modules and dist skipped). */
function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(p)) if (entry !== 'node_modules' && entry !== 'dist') visit(path.join(p, entry));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

const frontEndInputs = ['shared/src', 'webpack.factory.cjs', 'index.html'];
const packages = [
  { name: 'api', output: 'api/dist/server.js', inputs: ['api/src', 'api/seed', 'api/build.mjs', 'shared/src'] },
  { name: 'shell', output: 'shell/dist/mf-manifest.json', inputs: ['shell/src', ...frontEndInputs] },
  ...workspaceRemotes().map(({ package: dir }) => ({
    name: dir,
    output: `${dir}/dist/mf-manifest.json`,
    inputs: [`${dir}/src`, `${dir}/webpack.config.cjs`, `${dir}/remote.json`, ...frontEndInputs],
  })),
];

/** Builds what is stale; exits the process with pnpm's status if a build fails. */
export function buildStale() {
  const stale = packages.filter(({ output, inputs }) => {
    const out = path.join(root, output);
    return !existsSync(out) || statSync(out).mtimeMs < newestMtime(inputs.map((p) => path.join(root, p)));
  });
  if (stale.length === 0) return;
  const filters = stale.flatMap(({ name }) => ['--filter', name]);
  console.log(`Building ${stale.map((p) => p.name).join(', ')} …`);
  // Run pnpm the way we were started (pnpm sets npm_execpath), else through npx.
  const pnpm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npx', ['-y', 'pnpm@10']];
  const result = spawnSync(pnpm[0], [...pnpm[1], ...filters, 'run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
