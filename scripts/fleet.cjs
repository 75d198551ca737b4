// A fleet of Veritas: N instances of the production composition (serve.mjs) on one PostgreSQL,
// behind nginx (docs/operations.md#fleet). `pnpm start:fleet` (fleet.mjs) runs it; the fleet's
// browser tests and benchmarks start one with startFleet().
//
// Ports: nginx serves the console on PORT and each remote on PORT+1 … PORT+5, as `pnpm start`
// does; instance i (from 1) listens on PORT+10·i, its remotes on the five ports after it. Every
// instance announces the remotes at nginx's ports (REMOTES_JSON), so a page keeps loading its
// remotes whichever instance served it, and when that instance dies.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { REMOTES, consoleAddress, remoteManifests } = require('./deployment.cjs');
const { startPgCluster } = require('./pg-cluster.cjs');

const root = path.resolve(__dirname, '..');
/** Debian's nginx (package nginx); VERITAS_NGINX_BIN names another. */
const NGINX_BIN = process.env.VERITAS_NGINX_BIN || '/usr/sbin/nginx';
const INSTANCE_HOST = '127.0.0.1';
/** How long an instance may take to be ready: the first one migrates and loads the demo data. */
const READY_TIMEOUT_MS = 180_000;
/** How long a stopping instance may finish its requests and ingests before it is killed. */
const STOP_TIMEOUT_MS = 30_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The port of instance `index` (from 0) for a fleet on `port`. */
const instancePort = (port, index) => port + 10 * (index + 1);

/** The remotes that are built, with their port offsets (serve.mjs serves only those). */
function builtRemotes() {
  return Object.entries(REMOTES)
    .map(([name, pkg], i) => ({ name, pkg, offset: i + 1 }))
    .filter(({ pkg }) => fs.existsSync(path.join(root, pkg, 'dist', 'mf-manifest.json')));
}

async function answers(url, status = 200) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.status === status;
  } catch {
    return false;
  }
}

/** A child process whose output lines go to `output` under `label`; `exited` settles when it ends. */
function spawnLabelled(label, command, args, env, output) {
  const child = spawn(command, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a terminal's Ctrl-C reaches the fleet alone, which stops the pieces
    // in order (instances, then nginx, then the database).
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr])
    readline.createInterface({ input: stream }).on('line', (line) => output(label, line));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited };
}

async function waitFor(what, check, running, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!running()) throw new Error(`${what}: the process exited`);
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`${what}: not ready within ${timeoutMs / 1000} s`);
}

/** Stops a child with `signal`, then SIGKILL if it has not ended after `timeoutMs`. */
async function stopChild({ child, exited }, signal, timeoutMs) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/**
 * nginx's configuration: everything it writes (pid, temp files) in `dir`; one upstream of the
 * instances for the console and one per remote. Rules explained in docs/operations.md#fleet.
 */
function nginxConfig({ dir, host, port, instancePorts, remotes }) {
  const listen = host.includes(':') ? `[${host}]:` : `${host}:`;
  const upstream = (name, offset) => `
  upstream ${name} {
${instancePorts.map((p) => `    server ${INSTANCE_HOST}:${p + offset} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 16;
  }`;
  const server = (offset, upstreamName, extra = '') => `
  server {
    listen ${listen}${port + offset};
    location / {
      proxy_pass http://${upstreamName};
    }${extra}
  }`;
  const eventStream = `
    # The event stream: each event is sent on as it comes, and an idle stream (a ping every 15 s)
    # stays open.
    location /veritas/api/events/ {
      proxy_pass http://veritas;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
    }`;
  return `# Written by scripts/fleet.cjs for one run of the fleet.
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
  # An upload chunk is 1 MiB plus its form fields.
  client_max_body_size 2m;

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
  proxy_next_upstream error timeout http_502 http_503 http_504;
  proxy_connect_timeout 2s;
${upstream('veritas', 0)}
${remotes.map(({ name, offset }) => upstream(`veritas_${name}`, offset)).join('\n')}
${server(0, 'veritas', eventStream)}
${remotes.map(({ name, offset }) => server(offset, `veritas_${name}`)).join('\n')}
}
`;
}

/**
 * Starts the fleet and resolves once nginx answers with every instance ready.
 * @param {{ instances?: number, port?: number, databaseUrl?: string, env?: NodeJS.ProcessEnv,
 *   output?: (label: string, line: string) => void }} [options]
 *   env: the instances' environment (default process.env); output: where the instances' and
 *   nginx's lines go (default stdout, each prefixed with its label).
 */
async function startFleet({
  instances: count = 2,
  port = consoleAddress().port,
  databaseUrl,
  env = process.env,
  output = (label, line) => process.stdout.write(`[${label}] ${line}\n`),
} = {}) {
  if (!Number.isInteger(count) || count < 1) throw new Error(`The fleet needs at least one instance (got ${count})`);
  const host = consoleAddress(env).host;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-fleet-'));
  const children = new Set();
  let cluster;
  const cleanUp = () => {
    process.off('exit', abandon);
    try {
      cluster?.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  // Each child leads its own process group (nginx's workers are in the master's).
  function killAll() {
    for (const { child } of children) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  // If this process exits without stop() (an error, or a signal during start-up), the detached
  // children, the cluster and the folders go with it: all of it synchronous, as 'exit' requires.
  const abandon = () => {
    killAll();
    cleanUp();
  };
  process.on('exit', abandon);

  const remotes = builtRemotes();
  // Every instance announces the remotes where nginx serves them (or where REMOTES_JSON says).
  const remotesJson = JSON.stringify(remoteManifests({ ...env, PORT: String(port) }));

  function makeInstance(index, url) {
    const instancePortNumber = instancePort(port, index);
    const base = `http://${INSTANCE_HOST}:${instancePortNumber}/`;
    let current = null;
    const running = () => current !== null && current.child.exitCode === null && current.child.signalCode === null;

    async function start(demo) {
      const instanceEnv = {
        ...env,
        DATABASE_URL: url,
        HOST: INSTANCE_HOST,
        PORT: String(instancePortNumber),
        REMOTES_JSON: remotesJson,
        VERITAS_TRUST_PROXY: 'loopback',
        // Only the first start of the first instance fills an empty database with demo data.
        VERITAS_DEMO: demo ? (env.VERITAS_DEMO ?? '1') : '0',
      };
      current = spawnLabelled(
        String(index + 1),
        process.execPath,
        [path.join(root, 'scripts/serve.mjs')],
        instanceEnv,
        output,
      );
      const started = current;
      children.add(started);
      started.exited.then(() => children.delete(started));
      await waitFor(
        `instance ${index + 1} (${base})`,
        async () =>
          (await answers(`${base}veritas/health/ready/`)) &&
          (
            await Promise.all(
              remotes.map(({ offset }) =>
                answers(`http://${INSTANCE_HOST}:${instancePortNumber + offset}/mf-manifest.json`),
              ),
            )
          ).every(Boolean),
        running,
        READY_TIMEOUT_MS,
      );
    }

    return {
      instance: {
        url: base,
        port: instancePortNumber,
        get pid() {
          return current?.child.pid;
        },
        /** Sends `signal` (default SIGTERM) and resolves when the process has ended. */
        async kill(signal = 'SIGTERM') {
          if (!running()) return;
          current.child.kill(signal);
          await current.exited;
        },
        /** Stops the instance if it runs (SIGTERM), starts it again and resolves once it is ready. */
        async restart() {
          if (running()) await stopChild(current, 'SIGTERM', STOP_TIMEOUT_MS);
          await start(false);
        },
      },
      start,
      stop: () => (current ? stopChild(current, 'SIGTERM', STOP_TIMEOUT_MS) : undefined),
    };
  }

  const proxyUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  const configFile = path.join(dir, 'nginx.conf');
  let nginx = null;
  const nginxRunning = () => nginx !== null && nginx.child.exitCode === null && nginx.child.signalCode === null;
  const proxy = {
    url: proxyUrl,
    get pid() {
      return nginx?.child.pid;
    },
    /** Starts nginx and resolves once it serves the console. */
    async start() {
      if (nginxRunning()) return;
      nginx = spawnLabelled(
        'nginx',
        NGINX_BIN,
        ['-p', dir, '-c', configFile, '-e', 'stderr', '-g', 'daemon off;'],
        env,
        output,
      );
      const started = nginx;
      children.add(started);
      started.exited.then(() => children.delete(started));
      await waitFor('nginx', () => answers(`${proxyUrl}veritas/health/ready/`), nginxRunning, READY_TIMEOUT_MS);
    },
    /** Stops nginx at once (SIGTERM: open connections, event streams included, are closed). */
    async stop() {
      if (nginx) await stopChild(nginx, 'SIGTERM', STOP_TIMEOUT_MS);
    },
    async restart() {
      await proxy.stop();
      await proxy.start();
    },
  };

  const members = [];
  try {
    if (!databaseUrl) cluster = await startPgCluster();
    const url = databaseUrl ?? cluster.url;
    for (let i = 0; i < count; i++) members.push(makeInstance(i, url));
    // The first instance migrates and loads the demo data; the others start once it is ready.
    await members[0].start(true);
    await Promise.all(members.slice(1).map((member) => member.start(false)));
    fs.writeFileSync(
      configFile,
      nginxConfig({ dir, host, port, instancePorts: members.map((m) => m.instance.port), remotes }),
    );
    await proxy.start();
  } catch (error) {
    killAll();
    await Promise.all([...children].map(({ exited }) => exited));
    cleanUp();
    throw error;
  }

  let stopped;
  return {
    url: proxyUrl,
    databaseUrl: databaseUrl ?? cluster.url,
    instances: members.map((m) => m.instance),
    proxy,
    /** Stops the instances (SIGTERM, waiting for them), then nginx, then the cluster; removes the temp folders. */
    stop() {
      stopped ??= (async () => {
        try {
          await Promise.all(members.map((m) => m.stop()));
          await proxy.stop();
        } finally {
          cleanUp();
        }
      })();
      return stopped;
    },
  };
}

module.exports = { NGINX_BIN, instancePort, startFleet };
