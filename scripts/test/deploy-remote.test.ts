// scripts/deploy-remote.ts, the deploy command of each remote: its flags, the files it sends, the
// remote it names, and its answers and exit codes against a real HTTP server that records requests.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { workspaceRemotes } from '../workspace-remotes.cjs';
import {
  EXIT,
  RETRIES,
  USAGE,
  filesToPublish,
  parseDeployArgs,
  remoteOfFolder,
  runDeploy,
  type DeployEnvironment,
} from '../deploy-remote';

const TOKEN = 'vdt_test-token';

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A console on a free port: answers each request with the next of `replies`, records every request. */
async function startConsole(replies: Reply[]) {
  const requests: Recorded[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: text ? JSON.parse(text) : null,
      });
      const reply = replies.shift() ?? { status: 500, body: { detail: 'No reply left in the test' } };
      response.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
      response.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let consoleServer: Awaited<ReturnType<typeof startConsole>> | undefined;
afterEach(async () => {
  await consoleServer?.close();
  consoleServer = undefined;
});

const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/**
 * A remote's folder: package.json named `pkg`, remote.json naming `remote` (none when null) and,
 * unless `dist` is null, dist/ with these files.
 */
function remoteFolder(
  pkg: string,
  dist: Record<string, string | Buffer> | null = BUILD,
  remote: string | null = pkg.replace(/^mfe-/, ''),
): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-deploy-'));
  tempDirs.push(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: pkg }));
  if (remote !== null) fs.writeFileSync(path.join(dir, 'remote.json'), JSON.stringify({ name: remote }));
  for (const [file, content] of Object.entries(dist ?? {})) {
    fs.mkdirSync(path.dirname(path.join(dir, 'dist', file)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'dist', file), content);
  }
  return dir;
}

const BUILD = {
  'mf-manifest.json': '{"name":"devices"}',
  'remoteEntry.abcd1234.js': 'var devices;',
  'index.html': '<!doctype html><title>standalone</title>',
  'static/css/main.1234.css': 'body{}',
  'static/js/async/list-devices.5678.js': 'export {}',
};

const VERSION = {
  remote: 'devices',
  version: 7,
  manifestHash: 'ab'.repeat(32),
  integrity: 'sha384-xyz',
  contract: '1.0.0',
};

/** Runs the command in `cwd` with the token; answers its exit code, its output and the builds it ran. */
async function run(argv: string[], cwd: string, env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const errors: string[] = [];
  const builds: string[] = [];
  const environment: DeployEnvironment & { error: (line: string) => void } = {
    cwd,
    env: { VERITAS_DEPLOY_TOKEN: TOKEN, ...env },
    log: (line) => out.push(line),
    error: (line) => errors.push(line),
    build: (dir) => builds.push(dir),
  };
  const code = await runDeploy(argv, environment);
  return { code, out: out.join('\n'), errors, builds };
}

describe('flags', () => {
  test('--to is required: there is no default console', () => {
    expect(() => parseDeployArgs([])).toThrow('--to <console URL> is required');
    expect(() => parseDeployArgs(['--no-build'])).toThrow(expect.objectContaining({ exitCode: EXIT.usage }));
  });

  test('the -- that pnpm run passes before the flags is skipped', () => {
    expect(parseDeployArgs(['--', '--to', 'https://console.example'])).toMatchObject({ to: 'https://console.example' });
  });

  test('--to is an http(s) URL without credentials, query or fragment; a trailing slash is dropped', () => {
    expect(parseDeployArgs(['--to', 'https://console.example/']).to).toBe('https://console.example');
    expect(parseDeployArgs(['--to', 'http://127.0.0.1:8080/veritas-root/']).to).toBe(
      'http://127.0.0.1:8080/veritas-root',
    );
    expect(() => parseDeployArgs(['--to', 'console.example'])).toThrow('is not a URL');
    expect(() => parseDeployArgs(['--to', 'ftp://console.example'])).toThrow('is not http(s)');
    expect(() => parseDeployArgs(['--to', 'https://user:pw@console.example'])).toThrow('without credentials');
    expect(() => parseDeployArgs(['--to', 'https://console.example/?x=1'])).toThrow('query or fragment');
  });

  test('--canary is a whole share of users from 1 to 99 percent and excludes --promote', () => {
    const to = ['--to', 'https://c.example'];
    expect(parseDeployArgs([...to, '--canary', '10'])).toMatchObject({ canary: 10, promote: false });
    for (const percent of ['0', '100', '12.5', 'ten', '-5']) {
      expect(() => parseDeployArgs([...to, `--canary=${percent}`])).toThrow('from 1 to 99 percent');
    }
    expect(() => parseDeployArgs([...to, '--canary', '10', '--promote'])).toThrow('exclude each other');
  });

  test('defaults: build first, no promotion, no canary, no note; --no-build and --note change them', () => {
    expect(parseDeployArgs(['--to', 'https://c.example'])).toEqual({
      to: 'https://c.example',
      promote: false,
      build: true,
      help: false,
    });
    expect(parseDeployArgs(['--to', 'https://c.example', '--no-build', '--note', 'Fix the list'])).toMatchObject({
      build: false,
      note: 'Fix the list',
    });
    expect(() => parseDeployArgs(['--to', 'https://c.example', '--note', ' '])).toThrow('--note is empty');
  });

  test('unknown flags and stray arguments are refused with exit code 2', async () => {
    expect(() => parseDeployArgs(['--to', 'https://c.example', '--force'])).toThrow("Unknown option '--force'");
    expect(() => parseDeployArgs(['--to', 'https://c.example', 'devices'])).toThrow('devices');
    const result = await run(['--to', 'https://c.example', '--prod'], remoteFolder('mfe-devices'));
    expect(result.code).toBe(EXIT.usage);
    expect(result.errors).toEqual([expect.stringMatching(/^deploy: Unknown option '--prod'.*--help prints the usage/)]);
  });

  test('--help prints the usage, and builds and sends nothing', async () => {
    const result = await run(['--help'], remoteFolder('mfe-devices'), { VERITAS_DEPLOY_TOKEN: undefined });
    expect(result).toMatchObject({ code: EXIT.ok, out: USAGE, builds: [] });
    expect(USAGE).toContain('--to <URL>');
    expect(USAGE).toContain('VERITAS_DEPLOY_TOKEN');
  });
});

describe('the files sent', () => {
  test('every file under dist/ is sent, base64, with forward-slash paths relative to dist/, sorted', () => {
    const dir = remoteFolder('mfe-devices', { ...BUILD, 'static/img/logo.png': Buffer.from([0, 1, 2, 255]) });
    const { files, bytes } = filesToPublish(path.join(dir, 'dist'));
    expect(files.map((file) => file.path)).toEqual([
      'mf-manifest.json',
      'remoteEntry.abcd1234.js',
      'static/css/main.1234.css',
      'static/img/logo.png',
      'static/js/async/list-devices.5678.js',
    ]);
    const logo = files.find((file) => file.path === 'static/img/logo.png')!;
    expect(Buffer.from(logo.content, 'base64')).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(Buffer.from(files[1]!.content, 'base64').toString()).toBe('var devices;');
    expect(bytes).toBe(files.reduce((sum, file) => sum + Buffer.from(file.content, 'base64').length, 0));
  });

  test("dist/index.html, the remote's standalone page, is not sent; an index.html deeper down is", () => {
    const dir = remoteFolder('mfe-devices', { ...BUILD, 'docs/index.html': '<p>kept</p>' });
    const paths = filesToPublish(path.join(dir, 'dist')).files.map((file) => file.path);
    expect(paths).not.toContain('index.html');
    expect(paths).toContain('docs/index.html');
  });

  test('a dist/ without mf-manifest.json is refused with exit code 3, before any request', async () => {
    consoleServer = await startConsole([]);
    const { 'mf-manifest.json': _manifest, ...noManifest } = BUILD;
    const result = await run(['--to', consoleServer.url, '--no-build'], remoteFolder('mfe-devices', noManifest));
    expect(result.code).toBe(EXIT.build);
    expect(result.errors).toEqual([expect.stringContaining('has no mf-manifest.json')]);
    const noDist = await run(['--to', consoleServer.url, '--no-build'], remoteFolder('mfe-devices', null));
    expect(noDist.code).toBe(EXIT.build);
    expect(consoleServer.requests).toEqual([]);
  });
});

describe('the remote', () => {
  test("the remote is the name its folder's remote.json declares, whatever the package's name", () => {
    for (const { package: pkg, name } of workspaceRemotes()) {
      expect(remoteOfFolder(path.join(__dirname, '..', '..', pkg))).toBe(name);
    }
    expect(remoteOfFolder(remoteFolder('mfe-devices', null, 'case-queue'))).toBe('case-queue');
  });

  test('a folder without remote.json is refused with exit code 3, saying so, before building', async () => {
    const dir = remoteFolder('shell', null, null);
    const result = await run(['--to', 'https://c.example'], dir);
    expect(result.code).toBe(EXIT.build);
    expect(result.errors).toEqual([`deploy: ${dir} has no remote.json: run deploy in a remote's folder`]);
    expect(result.builds).toEqual([]);
  });

  test('a remote.json that names no remote is refused with exit code 3', async () => {
    const dir = remoteFolder('mfe-devices', null, '');
    const result = await run(['--to', 'https://c.example'], dir);
    expect(result.code).toBe(EXIT.build);
    expect(result.errors).toEqual([`deploy: ${dir}/remote.json names no remote`]);
  });

  test('each remote package runs this one script as its deploy script', () => {
    const root = path.join(__dirname, '..', '..');
    for (const { package: pkg } of workspaceRemotes()) {
      const scripts = JSON.parse(fs.readFileSync(path.join(root, pkg, 'package.json'), 'utf8')).scripts;
      expect(scripts.deploy).toBe('tsx ../scripts/deploy-remote.ts');
    }
  });
});

describe('publishing', () => {
  test('POSTs the build to <to>/veritas/registry/remotes/<remote>/versions/ with the bearer token, as JSON', async () => {
    consoleServer = await startConsole([{ status: 201, body: { created: true, version: VERSION } }]);
    const dir = remoteFolder('mfe-devices');
    const result = await run(['--to', `${consoleServer.url}/`, '--note', 'Faster list'], dir);
    expect(result.code).toBe(EXIT.ok);
    expect(result.builds).toEqual([dir]);
    const [request] = consoleServer.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/veritas/registry/remotes/devices/versions/' });
    expect(request!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toEqual({ files: filesToPublish(path.join(dir, 'dist')).files, note: 'Faster list' });
    expect(result.out).toMatch(
      /devices v7 published: contract @veritas\/shared 1\.0\.0, 4 files, \d+ B \(\d+ B sent\), in \d+ ms without the build/,
    );
  });

  test('--no-build publishes dist/ as it is, without building; no --note sends no note', async () => {
    consoleServer = await startConsole([{ status: 201, body: { created: true, version: VERSION } }]);
    const result = await run(['--to', consoleServer.url, '--no-build'], remoteFolder('mfe-devices'));
    expect(result).toMatchObject({ code: EXIT.ok, builds: [] });
    expect(Object.keys(consoleServer.requests[0]!.body as object)).toEqual(['files']);
  });

  test('the same build published before (200, created: false) is reported as such and succeeds', async () => {
    consoleServer = await startConsole([{ status: 200, body: { created: false, version: VERSION } }]);
    const result = await run(['--to', consoleServer.url, '--no-build'], remoteFolder('mfe-devices'));
    expect(result.code).toBe(EXIT.ok);
    expect(result.out).toContain('devices v7 already published (the same build)');
  });

  test("a refusal prints the server's detail on one line and exits 1", async () => {
    const detail = 'The build needs @veritas/shared ^2.0.0, the console provides 1.4.0.';
    consoleServer = await startConsole([{ status: 409, body: { detail } }]);
    const result = await run(['--to', consoleServer.url, '--no-build', '--promote'], remoteFolder('mfe-devices'));
    expect(result.code).toBe(EXIT.refused);
    expect(result.errors).toEqual([`deploy: The console refused the build (HTTP 409): ${detail}`]);
    expect(consoleServer.requests).toHaveLength(1);
  });

  test('an answer without a detail still fails with its status', async () => {
    consoleServer = await startConsole([{ status: 401 }]);
    const result = await run(['--to', consoleServer.url, '--no-build'], remoteFolder('mfe-devices'));
    expect(result.code).toBe(EXIT.refused);
    expect(result.errors[0]).toContain('(HTTP 401): no detail given');
  });

  test('a missing token exits 2 before building or sending anything', async () => {
    consoleServer = await startConsole([]);
    for (const token of [undefined, '', '  ']) {
      const result = await run(['--to', consoleServer.url], remoteFolder('mfe-devices'), {
        VERITAS_DEPLOY_TOKEN: token,
      });
      expect(result).toMatchObject({ code: EXIT.usage, builds: [] });
      expect(result.errors).toEqual([expect.stringContaining('VERITAS_DEPLOY_TOKEN is not set')]);
    }
    expect(consoleServer.requests).toEqual([]);
  });

  test('an unreachable console exits 4 with the reason', async () => {
    const closed = await startConsole([]);
    await closed.close();
    const result = await run(['--to', closed.url, '--no-build'], remoteFolder('mfe-devices'));
    expect(result.code).toBe(EXIT.unreachable);
    expect(result.errors).toEqual([`deploy: Cannot reach ${closed.url}: ECONNREFUSED`]);
  });

  test(`a 503 with Retry-After is tried again, ${RETRIES} times at most`, async () => {
    const busy = { status: 503, body: { detail: 'Busy' }, headers: { 'Retry-After': '0' } };
    consoleServer = await startConsole([busy, busy, { status: 201, body: { created: true, version: VERSION } }]);
    const result = await run(['--to', consoleServer.url, '--no-build'], remoteFolder('mfe-devices'));
    expect(result.code).toBe(EXIT.ok);
    expect(consoleServer.requests).toHaveLength(3);

    await consoleServer.close();
    consoleServer = await startConsole(Array.from({ length: RETRIES + 1 }, () => busy));
    const gaveUp = await run(['--to', consoleServer.url, '--no-build'], remoteFolder('mfe-devices'));
    expect(gaveUp.code).toBe(EXIT.refused);
    expect(gaveUp.errors).toEqual(['deploy: The console refused the build (HTTP 503): Busy']);
    expect(consoleServer.requests).toHaveLength(RETRIES + 1);
  });

  test('a 503 without Retry-After is not tried again', async () => {
    consoleServer = await startConsole([{ status: 503, body: { detail: 'Down' } }]);
    const result = await run(['--to', consoleServer.url, '--no-build'], remoteFolder('mfe-devices'));
    expect(result.code).toBe(EXIT.refused);
    expect(consoleServer.requests).toHaveLength(1);
  });
});

describe('rollout after publishing', () => {
  test('--promote POSTs the published version to …/promote/', async () => {
    consoleServer = await startConsole([{ status: 201, body: { created: true, version: VERSION } }, { status: 200 }]);
    const result = await run(['--to', consoleServer.url, '--no-build', '--promote'], remoteFolder('mfe-devices'));
    expect(result.code).toBe(EXIT.ok);
    expect(consoleServer.requests[1]).toMatchObject({
      url: '/veritas/registry/remotes/devices/promote/',
      body: { version: 7 },
    });
    expect(consoleServer.requests[1]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(result.out).toContain('devices v7 is live');
  });

  test('--canary POSTs the published version and the percent to …/canary/', async () => {
    consoleServer = await startConsole([{ status: 200, body: { created: false, version: VERSION } }, { status: 200 }]);
    const result = await run(['--to', consoleServer.url, '--no-build', '--canary', '25'], remoteFolder('mfe-devices'));
    expect(result.code).toBe(EXIT.ok);
    expect(consoleServer.requests[1]).toMatchObject({
      url: '/veritas/registry/remotes/devices/canary/',
      body: { version: 7, percent: 25 },
    });
    expect(result.out).toContain('devices v7 is the canary for 25% of users');
  });

  test("a refused promotion prints the server's detail and exits 1", async () => {
    const detail = 'needs @veritas/shared ^2.0.0, the console provides 1.4.0';
    consoleServer = await startConsole([
      { status: 201, body: { created: true, version: VERSION } },
      { status: 409, body: { detail } },
    ]);
    const result = await run(['--to', consoleServer.url, '--no-build', '--promote'], remoteFolder('mfe-devices'));
    expect(result.code).toBe(EXIT.refused);
    expect(result.errors).toEqual([`deploy: The console refused the promotion of v7 (HTTP 409): ${detail}`]);
  });
});

describe('the process', () => {
  test('the command exits with the code of its failure (a refusal: 1), its error on stderr', async () => {
    consoleServer = await startConsole([{ status: 409, body: { detail: 'gate mismatch' } }]);
    const root = path.join(__dirname, '..', '..');
    const child = spawn(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'scripts/deploy-remote.ts')].concat([
        '--',
        '--to',
        consoleServer.url,
        '--no-build',
      ]),
      { cwd: remoteFolder('mfe-devices'), env: { ...process.env, VERITAS_DEPLOY_TOKEN: TOKEN } },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(EXIT.refused);
    expect(stderr.trim()).toBe('deploy: The console refused the build (HTTP 409): gate mismatch');
  }, 30_000);
});
