// A fleet of Veritas: N instances of the production composition (serve.mjs) on one PostgreSQL,
// behind nginx (docs/operations.md#fleet). `pnpm start:fleet` (start-fleet.ts) runs it; the
// fleet's browser tests and benchmarks start one with startFleet().
//
// Ports: nginx serves the console on PORT, as `pnpm start` does; instance i (from 1) listens on
// PORT+10·i. The remotes come from the registry, whose versions every instance serves from the
// database, so a page keeps loading its remotes whichever instance served it, and when that
// instance dies.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { consoleAddress } from './deployment.cjs';
import { startPgCluster, type PgCluster } from './pg-cluster';

export interface FleetInstance {
  /** The instance's own console origin, e.g. http://127.0.0.1:8090/. */
  url: string;
  port: number;
  /** Of the running process (undefined before its first start). */
  readonly pid: number | undefined;
  /** Sends `signal` (default SIGTERM) and resolves when the process has ended. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Stops the instance if it runs (SIGTERM), starts it again and resolves once it is ready. */
  restart(): Promise<void>;
}

export interface FleetProxy {
  /** The console through nginx: http://HOST:PORT/. */
  url: string;
  readonly pid: number | undefined;
  /** Starts nginx and resolves once it serves the console. */
  start(): Promise<void>;
  /** Stops nginx at once (SIGTERM: open connections, event streams included, are closed). */
  stop(): Promise<void>;
  restart(): Promise<void>;
}

export interface Fleet {
  /** The console through nginx. */
  url: string;
  /** The database every instance serves (the throwaway cluster's unless one was given). */
  databaseUrl: string;
  instances: FleetInstance[];
  proxy: FleetProxy;
  /** The throwaway cluster (none when `databaseUrl` was given): `restart(downForMs)` as pg-cluster.ts's. */
  database: Pick<PgCluster, 'restart'> | undefined;
  /** Stops the instances (SIGTERM, waiting for them), then nginx, then the cluster; removes the temp folders. */
  stop(): Promise<void>;
}

type Output = (label: string, line: string) => void;

export interface FleetOptions {
  /** How many instances (default 2). */
  instances?: number;
  /** nginx's console port (default PORT, else 8080); instance i on PORT+10·i. */
  port?: number;
  /** The PostgreSQL database to serve; without it a throwaway cluster is started. */
  databaseUrl?: string;
  /** The instances' environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where the instances' and nginx's output lines go (default stdout, each prefixed with its label). */
  output?: Output;
}

const root = path.resolve(__dirname, '..');
/** Debian's nginx (package nginx); VERITAS_NGINX_BIN names another. */
export const NGINX_BIN = process.env.VERITAS_NGINX_BIN || '/usr/sbin/nginx';
const INSTANCE_HOST = '127.0.0.1';
/** How long an instance may take to be ready: the first one migrates and loads the demo data. */
const READY_TIMEOUT_MS = 180_000;
/** How long a stopping instance may finish its requests and ingests before it is killed. */
const STOP_TIMEOUT_MS = 30_000;

/** The port of instance `index` (from 0) for a fleet on `port`. */
const instancePort = (port: number, index: number) => port + 10 * (index + 1);

async function answers(url: string, status = 200): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.status === status;
  } catch {
    return false;
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, running: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!running()) throw new Error(`${what}: the process exited`);
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`${what}: not ready within ${timeoutMs / 1000} s`);
}

/** A child process of the fleet; `exited` settles when it ends. */
interface Labelled {
  child: ChildProcess;
  exited: Promise<void>;
}

const isRunning = (started: Labelled | null): started is Labelled =>
  started !== null && started.child.exitCode === null && started.child.signalCode === null;

/** Stops a child with `signal`, then SIGKILL if it has not ended after `timeoutMs`. */
async function stopChild(started: Labelled, signal: NodeJS.Signals, timeoutMs: number) {
  if (!isRunning(started)) return;
  started.child.kill(signal);
  const timer = setTimeout(() => started.child.kill('SIGKILL'), timeoutMs);
  await started.exited;
  clearTimeout(timer);
}

/** The fleet's running children, whose output lines go to `output` under their labels. */
class Children {
  private readonly running = new Set<Labelled>();

  constructor(private readonly output: Output) {}

  spawn(label: string, command: string, args: string[], env: NodeJS.ProcessEnv): Labelled {
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a terminal's Ctrl-C reaches the fleet alone, which stops the pieces
      // in order (instances, then nginx, then the database).
      detached: true,
    });
    for (const stream of [child.stdout!, child.stderr!])
      readline.createInterface({ input: stream }).on('line', (line) => this.output(label, line));
    const started = { child, exited: new Promise<void>((resolve) => child.once('exit', () => resolve())) };
    this.running.add(started);
    void started.exited.then(() => this.running.delete(started));
    return started;
  }

  /** Kills every child's process group (nginx's workers are in the master's), synchronously. */
  killAll() {
    for (const { child } of this.running) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  /** Resolves once every child has ended. */
  async ended() {
    await Promise.all([...this.running].map(({ exited }) => exited));
  }
}

/** The API's rules a proxy in front of it follows, from its build (read once the build exists). */
function apiRules(): { largestBody: number; securityHeaders: [string, string][] } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const api = require(path.join(root, 'api/dist/server.js')) as {
    LARGEST_BODY_BYTES: number;
    API_SECURITY_HEADERS: object;
    securityHeaderPairs(options: object): [string, string][];
  };
  return { largestBody: api.LARGEST_BODY_BYTES, securityHeaders: api.securityHeaderPairs(api.API_SECURITY_HEADERS) };
}

/** An answer nginx makes itself as the instances answer: `{detail}` in JSON, with `headers`. */
function ownAnswer(name: string, status: number, detail: string, headers: [string, string][]): string {
  return `    location @${name} {
      default_type application/json;
${headers.map(([header, value]) => `      add_header ${header} "${value}" always;`).join('\n')}
      return ${status} '${JSON.stringify({ detail })}';
    }`;
}

/**
 * nginx's configuration: everything it writes (pid, temp files) in `dir`; one upstream of the
 * instances. Rules explained in docs/operations.md#fleet.
 */
function nginxConfig({
  dir,
  host,
  port,
  instancePorts,
}: {
  dir: string;
  host: string;
  port: number;
  instancePorts: number[];
}): string {
  const listen = host.includes(':') ? `[${host}]:` : `${host}:`;
  const { largestBody, securityHeaders } = apiRules();
  return `# Written by scripts/fleet.ts for one run of the fleet.
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
${process.getuid?.() === 0 ? `# Workers would otherwise run as nobody, who cannot write in this folder.\nuser root root;\n` : ''}
events {
  worker_connections 4096;
}

http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # Every body a call takes reaches the instances (the largest, a shipment's 100 MiB, with room for
  # its headers): each call refuses a body too large for it with its own 413 and message.
  client_max_body_size ${largestBody + 1024 * 1024};

  proxy_http_version 1.1;
  proxy_set_header Connection "";
  proxy_set_header Host $http_host;
  # nginx is the edge: the client's address replaces any X-Forwarded-For it sent, so a client cannot
  # choose the address sign-in throttling counts (instances trust loopback: VERITAS_TRUST_PROXY).
  proxy_set_header X-Forwarded-For $remote_addr;
  proxy_set_header X-Forwarded-Proto $scheme;
  # Passive failover: a refused connection, a timeout or a closing instance's 502/503/504 sends the
  # request to the next instance, but never a POST once sent (nginx's default without
  # non_idempotent): a sign-in or an upload chunk is not replayed behind the client's back.
  # No instance is taken out of rotation for it (max_fails=0): while the database is down every
  # instance answers 503, which would take them all out, and nginx would answer 502 'no live
  # upstreams' instead of their 503 until after the database is back. A dead instance costs a
  # request one refused connection on the loopback.
  proxy_next_upstream error timeout http_502 http_503 http_504;
  proxy_connect_timeout 2s;
  upstream veritas {
${instancePorts.map((p) => `    server ${INSTANCE_HOST}:${p} max_fails=0;`).join('\n')}
    keepalive 16;
  }

  server {
    listen ${listen}${port};
    location / {
      proxy_pass http://veritas;
    }
    # The event stream: each event is sent on as it comes, and an idle stream (a ping every 15 s)
    # stays open.
    location /veritas/api/events/ {
      proxy_pass http://veritas;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
    }
    # What nginx refuses or cannot pass on answers as the instances do: a body over every call's
    # limit, and no instance answering (502, 504) as a 503 a client may repeat after Retry-After.
    error_page 413 @too_large;
    error_page 502 504 =503 @unavailable;
${ownAnswer('too_large', 413, `The body may be at most ${largestBody.toLocaleString('en-US')} bytes.`, securityHeaders)}
${ownAnswer('unavailable', 503, 'The service is unavailable. Try again in a moment.', [...securityHeaders, ['Retry-After', '1']])}
  }
}
`;
}

/** Whether the instance on `port` is ready, and answers /remotes.json. */
async function instanceReady(port: number): Promise<boolean> {
  if (!(await answers(`http://${INSTANCE_HOST}:${port}/veritas/health/ready/`))) return false;
  return answers(`http://${INSTANCE_HOST}:${port}/remotes.json`);
}

/** Instance `index` (from 0) of a fleet on `port`: its handle, and how the fleet starts and stops it. */
function fleetInstance({
  index,
  port,
  databaseUrl,
  env,
  children,
}: {
  index: number;
  port: number;
  databaseUrl: string;
  env: NodeJS.ProcessEnv;
  children: Children;
}) {
  const ownPort = instancePort(port, index);
  const url = `http://${INSTANCE_HOST}:${ownPort}/`;
  let current: Labelled | null = null;

  async function start(demo: boolean) {
    const instanceEnv = {
      ...env,
      DATABASE_URL: databaseUrl,
      HOST: INSTANCE_HOST,
      PORT: String(ownPort),
      VERITAS_TRUST_PROXY: 'loopback',
      // Only the first start of the first instance fills an empty database with demo data.
      VERITAS_DEMO: demo ? (env.VERITAS_DEMO ?? '1') : '0',
    };
    const started = children.spawn(
      String(index + 1),
      process.execPath,
      [path.join(root, 'scripts/serve.mjs')],
      instanceEnv,
    );
    current = started;
    await waitFor(
      `instance ${index + 1} (${url})`,
      () => instanceReady(ownPort),
      () => isRunning(started),
      READY_TIMEOUT_MS,
    );
  }

  const instance: FleetInstance = {
    url,
    port: ownPort,
    get pid() {
      return current?.child.pid;
    },
    async kill(signal = 'SIGTERM') {
      if (!isRunning(current)) return;
      current.child.kill(signal);
      await current.exited;
    },
    async restart() {
      if (isRunning(current)) await stopChild(current, 'SIGTERM', STOP_TIMEOUT_MS);
      await start(false);
    },
  };
  async function stop() {
    if (current) await stopChild(current, 'SIGTERM', STOP_TIMEOUT_MS);
  }
  return { instance, start, stop };
}

/** nginx in front of the instances, run from `dir` with the configuration `config`. */
function fleetProxy({
  url,
  dir,
  config,
  env,
  children,
}: {
  url: string;
  dir: string;
  config: string;
  env: NodeJS.ProcessEnv;
  children: Children;
}): FleetProxy {
  const configFile = path.join(dir, 'nginx.conf');
  let nginx: Labelled | null = null;
  const proxy: FleetProxy = {
    url,
    get pid() {
      return nginx?.child.pid;
    },
    async start() {
      if (isRunning(nginx)) return;
      fs.writeFileSync(configFile, config);
      const started = children.spawn(
        'nginx',
        NGINX_BIN,
        ['-p', dir, '-c', configFile, '-e', 'stderr', '-g', 'daemon off;'],
        env,
      );
      nginx = started;
      await waitFor(
        'nginx',
        () => answers(`${url}veritas/health/ready/`),
        () => isRunning(started),
        READY_TIMEOUT_MS,
      );
    },
    async stop() {
      if (nginx) await stopChild(nginx, 'SIGTERM', STOP_TIMEOUT_MS);
    },
    async restart() {
      await proxy.stop();
      await proxy.start();
    },
  };
  return proxy;
}

/** Starts the fleet and resolves once nginx answers with every instance ready. */
export async function startFleet({
  instances: count = 2,
  port = consoleAddress().port,
  databaseUrl,
  env = process.env,
  output = (label, line) => process.stdout.write(`[${label}] ${line}\n`),
}: FleetOptions = {}): Promise<Fleet> {
  if (!Number.isInteger(count) || count < 1) throw new Error(`The fleet needs at least one instance (got ${count})`);
  const host = consoleAddress(env).host;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-fleet-'));
  const children = new Children(output);
  let cluster: PgCluster | undefined;
  const cleanUp = () => {
    process.off('exit', abandon);
    try {
      cluster?.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  // If this process exits without stop() (an error, or a signal during start-up), the detached
  // children, the cluster and the folders go with it: all of it synchronous, as 'exit' requires.
  const abandon = () => {
    children.killAll();
    cleanUp();
  };
  process.on('exit', abandon);

  const instancePorts = Array.from({ length: count }, (_, index) => instancePort(port, index));
  const proxy = fleetProxy({
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    dir,
    config: nginxConfig({ dir, host, port, instancePorts }),
    env,
    children,
  });

  const members: ReturnType<typeof fleetInstance>[] = [];
  try {
    if (!databaseUrl) {
      cluster = await startPgCluster();
      databaseUrl = cluster.url;
    }
    for (let index = 0; index < count; index++)
      members.push(fleetInstance({ index, port, databaseUrl, env, children }));
    // The first instance migrates and loads the demo data; the others start once it is ready.
    await members[0]!.start(true);
    await Promise.all(members.slice(1).map((member) => member.start(false)));
    await proxy.start();
  } catch (error) {
    children.killAll();
    await children.ended();
    cleanUp();
    throw error;
  }

  let stopped: Promise<void> | undefined;
  return {
    url: proxy.url,
    databaseUrl,
    instances: members.map((member) => member.instance),
    proxy,
    database: cluster,
    stop() {
      stopped ??= (async () => {
        try {
          await Promise.all(members.map((member) => member.stop()));
          await proxy.stop();
        } finally {
          cleanUp();
        }
      })();
      return stopped;
    },
  };
}
