// scripts/create-remote.ts, `pnpm create-remote <name>`: a remote created outside the workspace
// builds (with the repository's webpack) to a dist/ the registry can take, and runs its own test;
// a bad or taken name is refused and writes nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  EXIT,
  MODEL_REMOTE,
  REPOSITORY,
  USAGE,
  nextSteps,
  parseCreateArgs,
  pascalCase,
  planRemote,
  runCreateRemote,
  titleCase,
  type RemotePlan,
} from '../create-remote';
import { WORKSPACE_FIELDS as DECLARATION_WORKSPACE_FIELDS } from '../../shared/src/api/composition';
import { WORKSPACE_FIELDS, remoteAt, workspaceRemotes } from '../workspace-remotes.cjs';

let scratch: string;

beforeAll(() => {
  scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-create-remote-')));
});

afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The environment of the processes the test starts: not jest's (NODE_ENV=test, its worker id). */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['NODE_ENV', 'JEST_WORKER_ID', 'INIT_CWD']) delete env[name];
  return env;
}

/** Runs `node <args>` in `cwd`; answers its exit code and output. */
function node(args: string[], cwd: string) {
  const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: childEnv() });
  return { status: run.status, stdout: String(run.stdout), stderr: String(run.stderr) };
}

/** Every file and folder under `folder`, relative, sorted. */
function listing(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The command in-process; nothing is installed (the parent of these tests is never the workspace). */
async function create(argv: string[]) {
  const out: string[] = [];
  const errors: string[] = [];
  const installs: number[] = [];
  const code = await runCreateRemote(argv, {
    cwd: scratch,
    log: (line) => out.push(line),
    error: (line) => errors.push(line),
    install: () => {
      installs.push(1);
      return true;
    },
  });
  return { code, out: out.join('\n'), errors, installs };
}

describe('names', () => {
  test('the page is the name in PascalCase, the title the name in title case', () => {
    expect(pascalCase('case-queue')).toBe('CaseQueue');
    expect(pascalCase('returns2-eu')).toBe('Returns2Eu');
    expect(titleCase('case-queue')).toBe('Case Queue');
    expect(parseCreateArgs(['case-queue'], scratch)).toEqual({
      name: 'case-queue',
      parent: REPOSITORY,
      title: 'Case Queue',
      help: false,
    });
  });

  test('--dir is taken from where the command ran, --title is kept as given', () => {
    expect(parseCreateArgs(['--', 'hub-map', '--dir', 'elsewhere', '--title', 'Hub map'], scratch)).toEqual({
      name: 'hub-map',
      parent: path.join(scratch, 'elsewhere'),
      title: 'Hub map',
      help: false,
    });
  });

  test('--help prints the usage and writes nothing', async () => {
    const before = listing(scratch);
    expect(await create(['--help'])).toMatchObject({ code: EXIT.ok, out: USAGE });
    expect(listing(scratch)).toEqual(before);
  });

  test('a name that is no remote name is refused with exit code 2, and nothing is written', async () => {
    const before = listing(scratch);
    for (const name of ['CaseQueue', '1queue', 'case_queue', 'case queue', 'queue-', 'queue--eu', 'a'.repeat(41)]) {
      const result = await create([name, '--dir', scratch]);
      expect(result.code).toBe(EXIT.usage);
      expect(result.errors).toEqual([
        `create-remote: "${name}" is not a remote's name: lower-case letters, digits and single hyphens, ` +
          'starting with a letter, at most 40 characters (--help prints the usage)',
      ]);
    }
    expect((await create([])).errors).toEqual(['create-remote: Name the remote (--help prints the usage)']);
    expect((await create(['a', 'b'])).errors[0]).toContain('Give one name');
    expect((await create(['queue', '--force'])).errors[0]).toContain("Unknown option '--force'");
    expect((await create(['queue', '--title', ' '])).errors[0]).toContain('--title is empty');
    expect((await create(['queue', '--title', 'x'.repeat(41)])).errors[0]).toContain('longer than 40 characters');
    expect(listing(scratch)).toEqual(before);
  });

  test("a workspace remote's name, or a route already taken, is refused with exit code 2, and nothing is written", async () => {
    const before = listing(scratch);
    const refusals: [string, string][] = [
      [
        'whitelabel',
        'create-remote: "whitelabel" is taken: the workspace\'s remote mfe-whitelabel is named "whitelabel"',
      ],
      ['list-devices', "would route /ListDevices, which is mfe-devices's page /ListDevices"],
      ['deployments', "would route /Deployments, which is the shell's own page"],
      ['login', "would route /Login, which is the shell's own page"],
      ['veritas', "would route /Veritas, which is the server's own path"],
      ['remotes', "would route /Remotes, which is the server's own path"],
    ];
    for (const [name, message] of refusals) {
      const result = await create([name, '--dir', scratch]);
      expect(result).toMatchObject({ code: EXIT.usage, installs: [] });
      expect(result.errors).toEqual([expect.stringContaining(message)]);
      if (name !== 'whitelabel') expect(fs.existsSync(path.join(REPOSITORY, `mfe-${name}`))).toBe(false);
    }
    expect(listing(scratch)).toEqual(before);
  });

  test('a folder that exists already is left as it is', async () => {
    const parent = path.join(scratch, 'taken');
    fs.mkdirSync(path.join(parent, 'mfe-queue'), { recursive: true });
    fs.writeFileSync(path.join(parent, 'mfe-queue', 'notes.txt'), 'mine');
    const result = await create(['queue', '--dir', parent]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.errors).toEqual([expect.stringContaining(`${path.join(parent, 'mfe-queue')} exists already`)]);
    expect(listing(parent)).toEqual(['mfe-queue', 'mfe-queue/notes.txt']);
    fs.rmSync(parent, { recursive: true });
  });
});

describe('dev ports', () => {
  const workspacePorts = () => workspaceRemotes().map((remote) => Number(remote.written.devPort));
  const devPortOf = (folder: string) =>
    JSON.parse(fs.readFileSync(path.join(folder, 'remote.json'), 'utf8')).devPort as number;
  const planIn = (name: string, parent: string) => planRemote(parseCreateArgs([name, '--dir', parent], scratch));

  test('with --dir, the next free dev port counts the remotes already in that folder, not only the workspace', () => {
    const parent = path.join(scratch, 'ports');
    const tsx = path.join(REPOSITORY, 'node_modules/tsx/dist/cli.mjs');
    for (const name of ['port-a', 'port-b']) {
      const created = node([tsx, path.join(REPOSITORY, 'scripts/create-remote.ts'), name, '--dir', parent], scratch);
      expect([created.status, created.stderr]).toEqual([EXIT.ok, '']);
    }
    const first = devPortOf(path.join(parent, 'mfe-port-a'));
    expect(first).toBe(Math.max(...workspacePorts()) + 1);
    expect(devPortOf(path.join(parent, 'mfe-port-b'))).toBe(first + 1);
    expect(planIn('port-c', parent).devPort).toBe(first + 2);

    // A remote of the folder with a port of its own counts; a remote.json that cannot be read, or
    // outside an mfe-* folder, does not.
    fs.mkdirSync(path.join(parent, 'mfe-older'));
    fs.writeFileSync(path.join(parent, 'mfe-older', 'remote.json'), JSON.stringify({ name: 'older', devPort: 3050 }));
    fs.mkdirSync(path.join(parent, 'mfe-broken'));
    fs.writeFileSync(path.join(parent, 'mfe-broken', 'remote.json'), '{');
    fs.mkdirSync(path.join(parent, 'notes'));
    fs.writeFileSync(path.join(parent, 'notes', 'remote.json'), JSON.stringify({ name: 'notes', devPort: 3900 }));
    expect(planIn('port-c', parent).devPort).toBe(3051);

    // Another folder, or one not made yet, starts after the workspace's.
    expect(planIn('port-c', path.join(scratch, 'ports-elsewhere')).devPort).toBe(first);
    fs.rmSync(parent, { recursive: true });
  }, 60_000);
});

describe('next steps', () => {
  const plan = (inWorkspace: boolean): RemotePlan => ({
    name: 'integrations',
    title: 'Integrations',
    pascal: 'Integrations',
    folder: inWorkspace ? path.join(REPOSITORY, 'mfe-integrations') : path.join(scratch, 'mfe-integrations'),
    inWorkspace,
    devPort: 3009,
    repository: inWorkspace ? '..' : path.relative(scratch, REPOSITORY),
  });
  const screens = fs.readFileSync(path.join(REPOSITORY, 'docs/screens.md'), 'utf8');
  /** A table row with its cells' padding taken away. */
  const row = (line: string) => line.replace(/ *\| */g, '|').trim();

  test('in the workspace, they say to add the page and its menu entry to docs/screens.md, in its rows', () => {
    const lines = nextSteps(plan(true));
    expect(lines[0]).toBe('Next, from the repository:');
    expect(lines.join('\n')).toContain('npx -y pnpm@10 --filter mfe-integrations run deploy');
    expect(lines.join('\n')).toContain('add its page and menu entry to docs/screens.md');
    expect(lines.join('\n')).toContain('api/test/workspace-composition.test.ts');
    // Rows as screens.md writes them: those of the Integrations remote, had create-remote made it.
    const printed = lines.filter((line) => line.startsWith('  under ')).map((line) => /\|.*\|/.exec(line)![0]);
    const documented = screens.split('\n').map(row);
    expect(printed).toHaveLength(2);
    for (const line of printed) expect(documented).toContain(row(line));
  });

  test('with --dir, the commands run in its folder, and docs/screens.md is not named', () => {
    const lines = nextSteps(plan(false));
    expect(lines[0]).toBe(`Next, in ${path.join(scratch, 'mfe-integrations')}:`);
    expect(lines).toContain('  npx -y pnpm@10 test');
    expect(lines.join('\n')).not.toContain('--filter');
    expect(lines.join('\n')).not.toContain('screens.md');
  });

  test('both say names and routes were checked against the workspace only, and the registry refuses a taken route (409)', () => {
    for (const inWorkspace of [true, false]) {
      const text = nextSteps(plan(inWorkspace)).join(' ');
      expect(text).toContain("checked against the workspace's remotes only");
      expect(text).toContain('the registry refuses (409)');
    }
  });
});

test('a remote created outside the workspace builds to a dist/ the registry takes, and runs its test', () => {
  const tsx = path.join(REPOSITORY, 'node_modules/tsx/dist/cli.mjs');
  const created = node(
    [tsx, path.join(REPOSITORY, 'scripts/create-remote.ts'), 'case-queue', '--dir', scratch],
    scratch,
  );
  expect(created.stderr).toBe('');
  expect(created.status).toBe(EXIT.ok);
  const folder = path.join(scratch, 'mfe-case-queue');
  expect(created.stdout).toContain(`Created ${folder}: remote "case-queue", page /CaseQueue ("Case Queue")`);
  expect(created.stdout).toContain('run deploy -- --to <console URL> --promote');
  expect(created.stdout).toContain('deploy:case-queue');

  const devPorts = workspaceRemotes().map((remote) => Number(remote.written.devPort));
  const declared = JSON.parse(fs.readFileSync(path.join(folder, 'remote.json'), 'utf8'));
  expect(declared).toEqual({
    name: 'case-queue',
    devPort: Math.max(...devPorts) + 1,
    title: 'Veritas · Case Queue',
    exposes: { './CaseQueuePage': './src/case-queue-page.tsx' },
    pages: [
      {
        path: 'CaseQueue',
        module: './CaseQueuePage',
        title: 'Case Queue',
        access: { roles: ['admin', 'super_admin'] },
      },
    ],
    menus: [{ menu: 'Data', label: 'Case Queue', order: 60, page: 'CaseQueue' }],
    extensions: [],
    slots: {},
    needs: {},
  });
  const pkg = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
  const model = JSON.parse(fs.readFileSync(path.join(REPOSITORY, MODEL_REMOTE, 'package.json'), 'utf8'));
  expect(pkg.name).toBe('mfe-case-queue');
  expect(pkg.dependencies).toEqual(model.dependencies);
  expect(Object.keys(pkg.scripts).sort()).toEqual(['build', 'deploy', 'dev', 'test', 'typecheck']);
  // Its dependencies are the very folders the workspace's remote uses: one React with the shell's.
  for (const dependency of Object.keys(pkg.dependencies)) {
    expect(fs.realpathSync(path.join(folder, 'node_modules', dependency))).toBe(
      fs.realpathSync(path.join(REPOSITORY, MODEL_REMOTE, 'node_modules', dependency)),
    );
  }

  const built = node([path.join(REPOSITORY, 'node_modules/webpack-cli/bin/cli.js'), '--mode', 'production'], folder);
  expect(built.stderr).not.toMatch(/ERROR|Error:/);
  expect(built.status).toBe(0);
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'dist/mf-manifest.json'), 'utf8'));
  expect(manifest.name).toBe('case-queue');
  expect(manifest.exposes).toEqual([expect.objectContaining({ name: 'CaseQueuePage', path: './CaseQueuePage' })]);
  // What the registry reads: the declaration, without the workspace's fields.
  const published = JSON.parse(fs.readFileSync(path.join(folder, 'dist/remote.json'), 'utf8'));
  const { devPort: _port, title: _title, exposes: _exposes, ...declaration } = declared;
  expect(WORKSPACE_FIELDS).toEqual(DECLARATION_WORKSPACE_FIELDS);
  expect(published).toEqual(declaration);
  expect(published).toEqual(remoteAt(folder)!.declaration);

  const tested = node([path.join(folder, 'node_modules/jest/bin/jest.js'), '--ci'], folder);
  expect(tested.stderr).toContain('1 passed');
  expect(tested.status).toBe(0);
}, 90_000);
