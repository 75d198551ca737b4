// `pnpm --filter <remote package> run deploy -- --to <console URL>` (docs/deploying-a-remote.md):
// builds the remote of the current folder, publishes its dist/ to the console's registry with the
// token in VERITAS_DEPLOY_TOKEN, then optionally makes that version live or a canary. Each remote's
// package.json runs this one script.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { PublishAnswer, RemoteVersion } from '@veritas/shared/domain';
import { fetchHonouringRetryAfter } from '@veritas/shared/retry-after';

export const USAGE = `Usage: pnpm --filter <remote package> run deploy -- --to <console URL> [options]

Builds the remote of the current folder (pnpm run build) and publishes its dist/ to the console's
remote registry, with the deploy token in the environment variable VERITAS_DEPLOY_TOKEN.

Options:
  --to <URL>           the console, e.g. https://console.example.com (required)
  --note <text>        a note kept with the version
  --promote            then make the version live for everyone
  --canary <percent>   then serve the version to <percent> of users (1 to 99)
  --no-build           publish dist/ as it is
  -h, --help           print this help

Exit codes: 0 published, 1 refused by the console, 2 wrong usage or no token,
3 no build to publish, 4 console unreachable.`;

/** What ends the command, and how. */
export const EXIT = { ok: 0, refused: 1, usage: 2, build: 3, unreachable: 4 } as const;

export const TOKEN_VARIABLE = 'VERITAS_DEPLOY_TOKEN';

/** A 503 with Retry-After is tried again this many times, waiting at most MAX_RETRY_WAIT_S each time. */
export const RETRIES = 3;
const MAX_RETRY_WAIT_S = 30;
/** A call that answers nothing within this time counts as unreachable. */
const CALL_TIMEOUT_MS = 120_000;

export interface DeployOptions {
  /** The console's URL, without a trailing slash. */
  to: string;
  note?: string;
  promote: boolean;
  canary?: number;
  build: boolean;
  help: boolean;
}

/** A failure the command reports in one line, with its exit code. */
export class DeployError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

const usageError = (message: string) => new DeployError(`${message} (--help prints the usage)`, EXIT.usage);

function parseFlags(args: string[]) {
  try {
    return parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        to: { type: 'string' },
        note: { type: 'string' },
        promote: { type: 'boolean' },
        canary: { type: 'string' },
        'no-build': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

/** The command's flags; a leading `--` (as `pnpm run deploy -- …` passes it) is skipped. */
export function parseDeployArgs(argv: string[]): DeployOptions {
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  const { values } = parseFlags(args);
  const options: DeployOptions = {
    to: '',
    promote: values.promote ?? false,
    build: !values['no-build'],
    help: values.help ?? false,
  };
  if (options.help) return options;
  if (values.to === undefined) throw usageError('--to <console URL> is required');
  let url: URL;
  try {
    url = new URL(values.to);
  } catch {
    throw usageError(`--to ${values.to} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw usageError(`--to ${values.to} is not http(s)`);
  if (url.search || url.hash || url.username || url.password) {
    throw usageError(`--to ${values.to} must be the console's URL alone, without credentials, query or fragment`);
  }
  options.to = url.href.replace(/\/+$/, '');
  if (values.note !== undefined) {
    if (!values.note.trim()) throw usageError('--note is empty');
    options.note = values.note;
  }
  if (values.canary !== undefined) {
    const percent = Number(values.canary);
    if (!/^\d+$/.test(values.canary) || percent < 1 || percent > 99) {
      throw usageError(`--canary ${values.canary} is not a share of users from 1 to 99 percent`);
    }
    if (options.promote) throw usageError('--promote and --canary exclude each other');
    options.canary = percent;
  }
  return options;
}

/** The remote whose package is in `dir`: the name its remote.json declares. */
export function remoteOfFolder(dir: string): string {
  let name: unknown;
  try {
    name = (JSON.parse(fs.readFileSync(path.join(dir, 'remote.json'), 'utf8')) as { name?: unknown }).name;
  } catch {
    throw new DeployError(`${dir} has no remote.json: run deploy in a remote's folder`, EXIT.build);
  }
  if (typeof name !== 'string' || !name) throw new DeployError(`${dir}/remote.json names no remote`, EXIT.build);
  return name;
}

export interface PublishedFile {
  /** Relative to dist/, forward slashes. */
  path: string;
  /** The file's bytes, base64. */
  content: string;
}

/**
 * The files of a build to publish: every file under `distDir` except its index.html (the remote's
 * standalone page, which the console does not serve), sorted by path.
 */
export function filesToPublish(distDir: string): { files: PublishedFile[]; bytes: number } {
  if (!fs.existsSync(path.join(distDir, 'mf-manifest.json'))) {
    throw new DeployError(
      `${distDir} has no mf-manifest.json: build the remote first (without --no-build)`,
      EXIT.build,
    );
  }
  const files: PublishedFile[] = [];
  let bytes = 0;
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const relative = prefix + entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${relative}/`);
      else if (entry.isFile() && relative !== 'index.html') {
        const content = fs.readFileSync(path.join(dir, entry.name));
        bytes += content.length;
        files.push({ path: relative, content: content.toString('base64') });
      }
    }
  };
  walk(distDir, '');
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, bytes };
}

interface Answer {
  status: number;
  body: unknown;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * POSTs `payload` as JSON with the token. A 503 with Retry-After is tried again up to RETRIES
 * times: a publish of the same build and a promotion of the live version change nothing.
 */
async function post(url: string, token: string, payload: unknown, log: (line: string) => void): Promise<Answer> {
  let response: Response;
  try {
    const body = JSON.stringify(payload);
    response = await fetchHonouringRetryAfter(
      url,
      () => ({
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body,
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      }),
      {
        budget: { repeats: RETRIES, longestWaitMs: MAX_RETRY_WAIT_S * 1000 },
        idempotent: true,
        onWait: (waitMs, repeat) =>
          log(`The console is busy (503): trying again in ${waitMs / 1000} s (${repeat} of ${RETRIES})`),
      },
    );
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new DeployError(`Cannot reach ${new URL(url).origin}: ${reason}`, EXIT.unreachable);
  }
  return { status: response.status, body: parseJson(await response.text()) };
}

/** The server's reason for refusing, on one line. */
function refusal(what: string, answer: Answer): DeployError {
  const detail = (answer.body as { detail?: unknown } | null)?.detail;
  const reason = typeof detail === 'string' && detail ? detail.replace(/\s+/g, ' ') : 'no detail given';
  return new DeployError(`The console refused the ${what} (HTTP ${answer.status}): ${reason}`, EXIT.refused);
}

const formatBytes = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(2)} MB`;

export interface DeployEnvironment {
  /** The remote's folder (where `pnpm --filter <package> run deploy` runs). */
  cwd: string;
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  /** Builds the remote in `cwd`; throws on failure. */
  build: (cwd: string) => void;
}

/** `pnpm run build` in the remote's folder, with the pnpm that runs this command when there is one. */
export function buildWithPnpm(cwd: string): void {
  const pnpm = process.env.npm_execpath;
  const [command, args] =
    pnpm && /\.[cm]?js$/.test(pnpm)
      ? [process.execPath, [pnpm, 'run', 'build']]
      : [pnpm && /pnpm/.test(path.basename(pnpm)) ? pnpm : 'pnpm', ['run', 'build']];
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.error) throw new DeployError(`Cannot run pnpm run build: ${result.error.message}`, EXIT.build);
  if (result.status !== 0)
    throw new DeployError(`The build failed (pnpm run build, exit ${result.status})`, EXIT.build);
}

/** The whole command; resolves to the version published, or throws a DeployError. */
export async function deploy(argv: string[], environment: DeployEnvironment): Promise<RemoteVersion | null> {
  const { cwd, env, log } = environment;
  const options = parseDeployArgs(argv);
  if (options.help) {
    log(USAGE);
    return null;
  }
  const token = env[TOKEN_VARIABLE]?.trim();
  if (!token)
    throw new DeployError(`${TOKEN_VARIABLE} is not set: export the console's deploy token in it`, EXIT.usage);
  const remote = remoteOfFolder(cwd);
  if (options.build) {
    log(`Building ${remote} …`);
    environment.build(cwd);
  }

  // The publish, timed from reading dist/ to the registry's answer: the build is not part of it.
  const started = performance.now();
  const { files, bytes } = filesToPublish(path.join(cwd, 'dist'));
  const payload = { files, ...(options.note === undefined ? {} : { note: options.note }) };
  const base = `${options.to}/veritas/registry/remotes/${remote}`;
  const answer = await post(`${base}/versions/`, token, payload, log);
  const elapsed = Math.round(performance.now() - started);
  if (answer.status !== 200 && answer.status !== 201) throw refusal('build', answer);
  const published = (answer.body as Partial<PublishAnswer> | null)?.version;
  if (!published || typeof published.version !== 'number') {
    throw new DeployError(`The console answered HTTP ${answer.status} without a version`, EXIT.refused);
  }
  const created = (answer.body as { created?: boolean }).created === true;
  const sent = Buffer.byteLength(JSON.stringify(payload));
  log(
    `${remote} v${published.version} ${created ? 'published' : 'already published (the same build)'}: ` +
      `contract @veritas/shared ${published.contract}, ${files.length} files, ${formatBytes(bytes)} ` +
      `(${formatBytes(sent)} sent), in ${elapsed} ms without the build`,
  );

  if (options.promote) {
    const promoted = await post(`${base}/promote/`, token, { version: published.version }, log);
    if (promoted.status >= 300) throw refusal(`promotion of v${published.version}`, promoted);
    log(`${remote} v${published.version} is live`);
  } else if (options.canary !== undefined) {
    const payload = { version: published.version, percent: options.canary };
    const canary = await post(`${base}/canary/`, token, payload, log);
    if (canary.status >= 300) throw refusal(`canary of v${published.version}`, canary);
    log(`${remote} v${published.version} is the canary for ${options.canary}% of users`);
  }
  return published;
}

/** Runs the command and answers its exit code; errors are one line on `error`. */
export async function runDeploy(
  argv: string[],
  environment: DeployEnvironment & { error: (line: string) => void },
): Promise<number> {
  try {
    await deploy(argv, environment);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof DeployError) {
      environment.error(`deploy: ${error.message}`);
      return error.exitCode;
    }
    environment.error(`deploy: ${(error as Error).stack ?? String(error)}`);
    return EXIT.refused;
  }
}

if (require.main === module) {
  void runDeploy(process.argv.slice(2), {
    cwd: process.cwd(),
    env: process.env,
    log: (line) => console.log(line),
    error: (line) => console.error(line),
    build: buildWithPnpm,
  }).then((code) => {
    process.exitCode = code;
  });
}
