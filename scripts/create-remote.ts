// `pnpm create-remote <name> [--dir <parent folder>] [--title "<Page title>"]`
// (docs/architecture.md#adding-a-remote): writes a new remote package, mfe-<name>/, from
// scripts/remote-template/: its remote.json declares one page and its menu entry, its build and
// tests use the repository's webpack factory and jest preset. In the workspace (the default
// parent) pnpm links it; elsewhere its node_modules link to the workspace's packages.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REMOTE_NAME_PATTERN } from '../shared/src/api/registry';
import { SERVER_PATHS, SHELL_ROUTES } from '../shared/src/slots';
import { remoteAt, workspaceRemotes } from './workspace-remotes.cjs';

export const USAGE = `Usage: pnpm create-remote <name> [--dir <parent folder>] [--title "<Page title>"]

Writes the remote package mfe-<name>/ from scripts/remote-template/: one page, /<Name> (the name in
PascalCase), opened by admins from the Data menu, its dev server on the next free port.

  <name>          lower-case letters, digits and hyphens, starting with a letter, at most 40
                  characters; not the name of a remote of the workspace
  --dir <folder>  where to write mfe-<name>/ (default: the repository, which joins the workspace)
  --title <text>  the page's title and menu label (default: the name in title case)
  -h, --help      print this help

Exit codes: 0 created, 1 created but not installed, 2 wrong usage (nothing is written).`;

export const EXIT = { ok: 0, install: 1, usage: 2 } as const;

/** A remote's name, as the registry takes it. */
const NAME_PATTERN = new RegExp(REMOTE_NAME_PATTERN);

/** The repository: its webpack factory, jest preset and base tsconfig are the new package's. */
export const REPOSITORY = path.resolve(__dirname, '..');
export const TEMPLATE = path.join(__dirname, 'remote-template');
/** The remote whose dependency versions, and whose installed packages, a new remote takes. */
export const MODEL_REMOTE = 'mfe-whitelabel';

/** A menu entry's label is at most 40 characters (DeclaredMenuEntry), and the title is the label. */
const MAX_TITLE = 40;

export interface CreateOptions {
  name: string;
  /** The folder to write mfe-<name>/ into, absolute. */
  parent: string;
  title: string;
  help: boolean;
}

/** A refusal or failure, in one line, with its exit code. */
export class CreateError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

const usageError = (message: string) => new CreateError(`${message} (--help prints the usage)`, EXIT.usage);

/** 'case-queue' → 'CaseQueue': the page's route and the start of its module's name. */
export const pascalCase = (name: string) =>
  name
    .split('-')
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/** 'case-queue' → 'Case Queue': the default title. */
export const titleCase = (name: string) =>
  name
    .split('-')
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');

/** The command's arguments; `--dir` is taken from `cwd` (where the user ran pnpm). */
export function parseCreateArgs(argv: string[], cwd: string): CreateOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.filter((arg) => arg !== '--'),
      strict: true,
      allowPositionals: true,
      options: {
        dir: { type: 'string' },
        title: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { name: '', parent: REPOSITORY, title: '', help: true };
  if (positionals.length !== 1) throw usageError(positionals.length ? 'Give one name' : 'Name the remote');
  const name = positionals[0]!;
  if (!NAME_PATTERN.test(name) || name.endsWith('-') || name.includes('--')) {
    throw usageError(
      `"${name}" is not a remote's name: lower-case letters, digits and single hyphens, starting with a letter, at most 40 characters`,
    );
  }
  const title = (values.title ?? titleCase(name)).trim();
  if (!title) throw usageError('--title is empty');
  if ([...title].length > MAX_TITLE) throw usageError(`--title is longer than ${MAX_TITLE} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(title)) throw usageError('--title holds a control character');
  if (values.dir !== undefined && !values.dir.trim()) throw usageError('--dir is empty');
  const parent = path.resolve(cwd, values.dir ?? REPOSITORY);
  return { name, parent, title, help: false };
}

/** What the new remote is, and where it goes. */
export interface RemotePlan {
  name: string;
  title: string;
  pascal: string;
  folder: string;
  /** Whether the folder is a package of the workspace (its parent is the repository). */
  inWorkspace: boolean;
  devPort: number;
  /** The repository, relative to the folder, with forward slashes: '..' in the workspace. */
  repository: string;
}

/**
 * The remote packages in `folder` (where --dir writes): each `mfe-*` folder with a remote.json, as in
 * the workspace; one whose remote.json cannot be read is not counted.
 */
export function remotesIn(folder: string): NonNullable<ReturnType<typeof remoteAt>>[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('mfe-'))
    .flatMap((entry) => {
      try {
        return remoteAt(path.join(folder, entry.name)) ?? [];
      } catch {
        return [];
      }
    });
}

const realParent = (parent: string) => (fs.existsSync(parent) ? fs.realpathSync(parent) : path.resolve(parent));

/** Checks the name against the workspace's remotes and the target folder; throws before anything is written. */
export function planRemote({ name, parent, title }: CreateOptions): RemotePlan {
  const remotes = workspaceRemotes();
  const pascal = pascalCase(name);
  const folder = path.join(realParent(parent), `mfe-${name}`);
  const taken = remotes.find((remote) => remote.name === name || remote.package === `mfe-${name}`);
  if (taken) throw usageError(`"${name}" is taken: the workspace's remote ${taken.package} is named "${taken.name}"`);
  if (fs.existsSync(path.join(REPOSITORY, `mfe-${name}`))) {
    throw usageError(`"${name}" is taken: the workspace already has a folder mfe-${name}`);
  }
  if (fs.existsSync(folder)) throw usageError(`${folder} exists already`);
  // Routes match without regard to case: /casequeue would open /CaseQueue.
  const route = pascal.toLowerCase();
  if (SHELL_ROUTES.some((shellRoute) => shellRoute.toLowerCase() === route)) {
    throw usageError(`"${name}" would route /${pascal}, which is the shell's own page`);
  }
  if (SERVER_PATHS.some((serverPath) => serverPath.toLowerCase() === route)) {
    throw usageError(`"${name}" would route /${pascal}, which is the server's own path`);
  }
  for (const remote of remotes) {
    const pages = (remote.written as { pages?: { path: string }[] }).pages ?? [];
    const page = pages.find((p) => p.path.toLowerCase() === route);
    if (page) throw usageError(`"${name}" would route /${pascal}, which is ${remote.package}'s page /${page.path}`);
  }
  // The next free dev port: after the workspace's remotes and, with --dir, those already in that folder.
  const ports = [...remotes, ...remotesIn(parent)].map(
    (remote) => Number((remote.written as { devPort?: number }).devPort) || 0,
  );
  const repository = path.relative(folder, REPOSITORY).split(path.sep).join('/');
  // The path is written into string literals of the new files.
  if (/['"\\\n`$]/.test(repository)) throw usageError(`--dir ${parent}: its path holds a quote or backslash`);
  return {
    name,
    title,
    pascal,
    folder,
    inWorkspace: realParent(parent) === fs.realpathSync(REPOSITORY),
    devPort: Math.max(3000, ...ports) + 1,
    repository,
  };
}

/** The template's tokens in a JSON value: each string (and key) with its tokens replaced. */
function substituteJson(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((item) => substituteJson(item, replace));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [replace(key), substituteJson(item, replace)]),
    );
  }
  return value;
}

/** Every file of the template, relative to it, with forward slashes. */
function templateFiles(dir = TEMPLATE, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? templateFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : [`${prefix}${entry.name}`],
    )
    .sort();
}

/** The new package's files, by path relative to its folder: the template with the plan's values. */
export function renderRemote(plan: RemotePlan): Map<string, string> {
  const tokens: Record<string, string> = {
    __name__: plan.name,
    __Pascal__: plan.pascal,
    __Title__: plan.title,
    __repository__: plan.repository,
  };
  const replace = (text: string) => text.replace(/__(name|Pascal|Title|repository)__/g, (token) => tokens[token]!);
  // In code the title is only ever the whole of a string literal, '__Title__'.
  const replaceCode = (text: string) =>
    replace(text.replace(/'__Title__'/g, () => `'${plan.title.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`));
  const model = JSON.parse(fs.readFileSync(path.join(REPOSITORY, MODEL_REMOTE, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };

  const files = new Map<string, string>();
  for (const file of templateFiles()) {
    const source = fs.readFileSync(path.join(TEMPLATE, file), 'utf8');
    const target = file.replace(/^src\/page(\.test)?\.tsx$/, `src/${plan.name}-page$1.tsx`);
    if (file.endsWith('.json')) {
      const json = substituteJson(JSON.parse(source), replace) as Record<string, unknown>;
      if (file === 'package.json') json.dependencies = { ...model.dependencies };
      // The next free dev port (planRemote): the template cannot know it.
      const content = file === 'remote.json' ? { name: json.name, devPort: plan.devPort, ...json } : (json as object);
      files.set(target, JSON.stringify(content, null, 2) + '\n');
    } else {
      files.set(target, replaceCode(source));
    }
  }
  return files;
}

/** Formats `files` as the repository's Prettier configuration does (`pnpm lint` checks it). */
async function formatted(files: Map<string, string>): Promise<Map<string, string>> {
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(path.join(REPOSITORY, 'package.json'))) ?? {};
  const result = new Map<string, string>();
  for (const [file, text] of files) result.set(file, await prettier.format(text, { ...config, filepath: file }));
  return result;
}

/**
 * Outside the workspace pnpm cannot install the package: `@veritas/shared` is `workspace:*`, which
 * only a workspace resolves, and the build and tests need the very packages the console is built
 * with (one React, the shared singletons' versions), not another copy fetched from the registry.
 * So its node_modules link to what the workspace resolves for an existing remote: its dependencies
 * from that remote's node_modules, and the tools its scripts and the webpack factory's loaders use
 * (webpack, swc-loader, jest, @swc/jest, tsx, …), which a workspace package finds in the root's.
 */
export function linkNodeModules(folder: string): string[] {
  const model = path.join(REPOSITORY, MODEL_REMOTE);
  const packages = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const root = JSON.parse(fs.readFileSync(path.join(REPOSITORY, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  const names = new Set([
    ...Object.keys(packages.dependencies ?? {}),
    ...Object.keys(packages.devDependencies ?? {}),
    ...Object.keys(root.devDependencies ?? {}),
  ]);
  const linked: string[] = [];
  for (const name of [...names].sort()) {
    // As Node resolves it from the model remote: its own node_modules, then the root's.
    const source = [path.join(model, 'node_modules', name), path.join(REPOSITORY, 'node_modules', name)].find(
      (candidate) => fs.existsSync(candidate),
    );
    if (!source) throw new CreateError(`${name} is not installed in the workspace: run pnpm install there first`, 1);
    const link = path.join(folder, 'node_modules', name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(fs.realpathSync(source), link, 'dir');
    linked.push(name);
  }
  // `pnpm run build` (and dev, test) find webpack, jest and tsx here, as in the workspace.
  fs.symlinkSync(path.join(REPOSITORY, 'node_modules', '.bin'), path.join(folder, 'node_modules', '.bin'), 'dir');
  return linked;
}

/** pnpm as this command was started (pnpm create-remote), else through npx. */
function pnpmCommand(): [string, string[]] {
  const pnpm = process.env.npm_execpath;
  if (pnpm && /pnpm/.test(path.basename(pnpm))) {
    return /\.[cm]?js$/.test(pnpm) ? [process.execPath, [pnpm]] : [pnpm, []];
  }
  return ['npx', ['-y', 'pnpm@10']];
}

/**
 * `pnpm install --prefer-offline` in the repository: the store has every package the model remote
 * uses, and what its metadata cache lacks is asked of the registry (a plain `--offline` fails there
 * with an error a new team would take for the command's).
 */
function installInWorkspace(log: (line: string) => void): boolean {
  const [command, prefix] = pnpmCommand();
  log('pnpm install --prefer-offline …');
  return (
    spawnSync(command, [...prefix, 'install', '--prefer-offline'], { cwd: REPOSITORY, stdio: 'inherit' }).status === 0
  );
}

export interface CreateEnvironment {
  /** Where the command was run: --dir is relative to it. */
  cwd: string;
  log: (line: string) => void;
  /** Links the package in the workspace (pnpm install); false when it could not. */
  install: (log: (line: string) => void) => boolean;
}

/** The lines that tell what to do next. */
export function nextSteps(plan: RemotePlan): string[] {
  const pnpm = 'npx -y pnpm@10';
  const [run, where] = plan.inWorkspace
    ? [`${pnpm} --filter mfe-${plan.name}`, 'from the repository']
    : [`${pnpm}`, `in ${plan.folder}`];
  return [
    `Next, ${where}:`,
    `  ${run} dev        # alone on http://127.0.0.1:${plan.devPort}/, against the API of pnpm start (:8080)`,
    `  ${run} test`,
    `  VERITAS_DEPLOY_TOKEN=vrt_… ${run} run deploy -- --to <console URL> --promote`,
    `The deploy token is scoped deploy:${plan.name}: a super_admin makes it on the console's Deployments page.`,
    `Once promoted, /${plan.pascal} is in the Data menu of admin and super_admin, with no rebuild of the shell.`,
    ...(plan.inWorkspace ? screensSteps(plan) : []),
    `The name and the route were checked against the workspace's remotes only: at publish the registry refuses (409)`,
    `a page whose route the live console already serves.`,
  ];
}

/**
 * In the workspace, the repository's tests compare the composed console with docs/screens.md
 * (api/test/workspace-composition.test.ts): the new page and its menu entry go there in the same change.
 */
function screensSteps(plan: RemotePlan): string[] {
  // The template's page and menu entry, as the new remote.json has them.
  const {
    pages: [{ access }],
    menus: [{ menu, order }],
  } = JSON.parse(fs.readFileSync(path.join(TEMPLATE, 'remote.json'), 'utf8')) as {
    pages: [{ access: { roles: string[] } }];
    menus: [{ menu: string; order: number }];
  };
  const roles = access.roles.join(', ');
  const title = plan.title.replace(/\|/g, '\\|');
  return [
    `In the same change, add its page and menu entry to docs/screens.md, or the repository's tests fail`,
    `(api/test/workspace-composition.test.ts checks the workspace's menus against it and names what is missing):`,
    `  under "## Routes":  | \`/${plan.pascal}\` | ${title} | \`${plan.name}/${plan.pascal}Page\` | ${roles} |`,
    `  under "### ${menu} menu": | ${title} | opens \`/${plan.pascal}\` | ${roles} |  (rows in menu order; its order is ${order})`,
  ];
}

/** The whole command; answers the plan it carried out, or throws a CreateError. */
export async function createRemote(argv: string[], environment: CreateEnvironment): Promise<RemotePlan | null> {
  const { log } = environment;
  const options = parseCreateArgs(argv, environment.cwd);
  if (options.help) {
    log(USAGE);
    return null;
  }
  const plan = planRemote(options);
  const files = await formatted(renderRemote(plan));
  fs.mkdirSync(path.dirname(plan.folder), { recursive: true });
  // Written aside, then renamed: a failure leaves no half-written package behind.
  const staging = fs.mkdtempSync(path.join(path.dirname(plan.folder), `.mfe-${plan.name}-`));
  // mkdtemp makes the folder private (0700); the package's is an ordinary folder.
  fs.chmodSync(staging, 0o777 & ~process.umask());
  try {
    for (const [file, text] of files) {
      fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
      fs.writeFileSync(path.join(staging, file), text);
    }
    fs.renameSync(staging, plan.folder);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  log(
    `Created ${plan.folder}: remote "${plan.name}", page /${plan.pascal} ("${plan.title}"), dev port ${plan.devPort}`,
  );
  if (plan.inWorkspace) {
    if (!environment.install(log)) {
      throw new CreateError(
        `mfe-${plan.name} is written but not installed: run pnpm install in ${REPOSITORY}`,
        EXIT.install,
      );
    }
  } else {
    linkNodeModules(plan.folder);
    log(`Outside the workspace: its node_modules link to the workspace's packages (${REPOSITORY}).`);
  }
  for (const line of nextSteps(plan)) log(line);
  return plan;
}

/** Runs the command and answers its exit code; errors are one line on `error`. */
export async function runCreateRemote(
  argv: string[],
  environment: CreateEnvironment & { error: (line: string) => void },
): Promise<number> {
  try {
    await createRemote(argv, environment);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CreateError) {
      environment.error(`create-remote: ${error.message}`);
      return error.exitCode;
    }
    environment.error(`create-remote: ${(error as Error).stack ?? String(error)}`);
    return EXIT.install;
  }
}

if (require.main === module) {
  void runCreateRemote(process.argv.slice(2), {
    // pnpm runs a root script in the repository; INIT_CWD is where the user typed the command.
    cwd: process.env.INIT_CWD ?? process.cwd(),
    log: (line) => console.log(line),
    error: (line) => console.error(line),
    install: installInWorkspace,
  }).then((code) => {
    process.exitCode = code;
  });
}
