// The same sources build to the same bytes in any folder (webpack.factory.cjs): CI builds each run
// in a fresh clone, and the registry answers a build published again "already published" only when
// its files are the same (docs/deploying-a-remote.md). A remote is built in two copies of the
// repository at different paths, each installed by pnpm from the store as a clone would be, and the
// two dist/ folders are compared file for file, byte for byte.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '../..');
/** The smallest remote. */
const REMOTE = 'mfe-whitelabel';

/** What its build reads besides the workspace's package.json files: nothing else is copied. */
const BUILD_INPUTS = [
  'pnpm-workspace.yaml',
  'pnpm-lock.yaml',
  'webpack.factory.cjs',
  'index.html',
  'scripts/deployment.cjs',
  'scripts/federation-entry-loader.cjs',
  'scripts/workspace-remotes.cjs',
  'shared/src',
  `${REMOTE}/src`,
  `${REMOTE}/remote.json`,
  `${REMOTE}/webpack.config.cjs`,
];

/** pnpm as the test was started (pnpm test:scripts), else through npx. */
const PNPM: [string, string[]] = /pnpm/.test(path.basename(process.env.npm_execpath ?? ''))
  ? [process.execPath, [process.env.npm_execpath!]]
  : ['npx', ['-y', 'pnpm@10']];

function pnpm(args: string[], options: SpawnSyncOptions = {}): string {
  // As a pipeline runs it, not as jest does (NODE_ENV=test).
  const env = { ...process.env, NODE_ENV: undefined };
  const run = spawnSync(PNPM[0], [...PNPM[1], ...args], { encoding: 'utf8', env, ...options });
  if (run.status !== 0) throw new Error(`pnpm ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
  return String(run.stdout).trim();
}

/** The projects pnpm-lock.yaml knows, whose package.json a frozen install needs ('.' is the root). */
function importers(): string[] {
  const lock = fs.readFileSync(path.join(repoRoot, 'pnpm-lock.yaml'), 'utf8');
  const section = lock.slice(lock.indexOf('\nimporters:'), lock.indexOf('\npackages:'));
  return [...section.matchAll(/^ {2}(\S+):$/gm)].flatMap((match) => match[1] ?? []);
}

/** A copy of the repository's files a build of REMOTE reads, at `folder`; returns its real path. */
function copyRepository(folder: string): string {
  for (const project of importers()) {
    fs.mkdirSync(path.join(folder, project), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, project, 'package.json'), path.join(folder, project, 'package.json'));
  }
  for (const input of BUILD_INPUTS)
    fs.cpSync(path.join(repoRoot, input), path.join(folder, input), { recursive: true });
  return fs.realpathSync(folder);
}

/** Installs the copy at `folder` from `store`, as a clone is, and builds REMOTE there; returns its dist/. */
function build(folder: string, store: string): string {
  pnpm(['install', '--offline', '--frozen-lockfile', '--ignore-scripts', '--store-dir', store], { cwd: folder });
  // The copy has packages of its own: pnpm's links lead inside it, not to the repository's.
  expect(path.relative(folder, fs.realpathSync(path.join(folder, 'node_modules/webpack')))).toMatch(/^node_modules\//);
  pnpm(['run', 'build'], { cwd: path.join(folder, REMOTE) });
  return path.join(folder, REMOTE, 'dist');
}

/** Every file under `folder`, by relative path. */
function filesOf(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

let scratch: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-reproducible-'));
});

afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('the same sources build to the same bytes in any folder: a remote built in two clones has the same dist/', () => {
  // The workspace's store, wherever the temporary folder is: the install needs no network.
  const store = pnpm(['store', 'path'], { cwd: repoRoot });
  // Both copies first: the sources they are made of cannot change between the two.
  const folder = copyRepository(path.join(scratch, 'a', 'veritas'));
  const otherFolder = copyRepository(path.join(scratch, 'second', 'clone', 'veritas-ci'));
  expect(otherFolder).not.toBe(folder);
  const dist = build(folder, store);
  const otherDist = build(otherFolder, store);

  const files = filesOf(dist);
  expect(files).toContain('mf-manifest.json');
  expect(filesOf(otherDist)).toEqual(files);
  const differing = files.filter(
    (file) => !fs.readFileSync(path.join(dist, file)).equals(fs.readFileSync(path.join(otherDist, file))),
  );
  expect(differing).toEqual([]);
  // Nor does any file name the folder it was built in.
  const naming = files.filter((file) => fs.readFileSync(path.join(dist, file), 'utf8').includes(folder));
  expect(naming).toEqual([]);
}, 240_000);
