// What every API benchmark needs: one run per engine (SQLite, then PostgreSQL 15 on a throwaway
// cluster or VERITAS_TEST_PG_URL), a database prepared in-process, and the server in a child
// process of its own, as it would run beside its clients, whose peak memory can be read.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { migrateToLatest, openDatabase, type ServerOptions } from '../src/server';
import type { Db } from '../src/db/schema';
import { startPgCluster, type PgCluster } from '../test/support/pg-cluster';

export interface EngineOptions {
  dataDir: string;
  databaseUrl?: string;
  /** The database already holds the benchmark's records (BENCH_DATABASE_URL or BENCH_DATA_DIR): nothing is loaded. */
  preloaded?: boolean;
}

/**
 * A database loaded beforehand with `pnpm --filter api load:volume` (as e2e's bench:scale reads
 * it): BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR (SQLite). Benchmarks of read paths run on
 * it alone instead of loading millions of records each time.
 */
function preloadedEngine(): { label: string; options: EngineOptions } | undefined {
  const url = process.env.BENCH_DATABASE_URL;
  const dir = process.env.BENCH_DATA_DIR;
  if (url) return { label: 'PostgreSQL', options: { dataDir: os.tmpdir(), databaseUrl: url, preloaded: true } };
  if (dir) return { label: 'SQLite', options: { dataDir: path.resolve(dir), preloaded: true } };
  return undefined;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** One GET, timed from the call to the end of the answer. */
function timedGet(url: string, cookie: string): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie } }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`${url}: status ${response.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - started) / 1e6);
        });
      })
      .on('error', reject);
  });
}

/**
 * Calls user/get_role/ every 20 ms, as a console would go on asking while a long answer streams;
 * stop() gives how many calls were made, the slowest answer, which shows how long the server's
 * event loop was held, and every answer's time.
 */
export function probeGetRole(base: string, cookie: string) {
  const probes: Promise<number>[] = [];
  const probing = setInterval(() => probes.push(timedGet(`${base}/veritas/user/get_role/`, cookie)), 20);
  return {
    async stop(): Promise<{ probes: number; slowestMs: number; latencies: number[] }> {
      clearInterval(probing);
      const latencies = await Promise.all(probes);
      return { probes: latencies.length, slowestMs: Math.max(0, ...latencies), latencies };
    },
  };
}

/** Opens and migrates the engine's database, runs `work` on it, closes it. */
export async function withDatabase<T>(options: EngineOptions, work: (db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase(options);
  try {
    await migrateToLatest(db);
    return await work(db);
  } finally {
    await db.kysely.destroy();
  }
}

/**
 * Runs `bench` on SQLite, then on PostgreSQL when available, each on an empty database (on one of
 * them alone when BENCH_ENGINE is sqlite or postgres); with `preloadable`, on the preloaded
 * database alone when one is named (preloadedEngine).
 */
export async function forEachEngine(
  bench: (label: string, options: EngineOptions) => Promise<void>,
  { preloadable = false } = {},
): Promise<void> {
  const preloaded = preloadable ? preloadedEngine() : undefined;
  if (preloaded) return bench(preloaded.label, preloaded.options);
  const engine = process.env.BENCH_ENGINE;
  if (engine && engine !== 'sqlite' && engine !== 'postgres') throw new Error('BENCH_ENGINE is sqlite or postgres');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-bench-'));
  let cluster: PgCluster | undefined;
  try {
    if (engine !== 'postgres') await bench('SQLite', { dataDir: path.join(dataDir, 'sqlite') });
    if (engine === 'sqlite') return;

    let pgBase = process.env.VERITAS_TEST_PG_URL;
    if (!pgBase && fs.existsSync('/usr/lib/postgresql/15/bin/initdb')) {
      cluster = await startPgCluster();
      pgBase = cluster.url;
    }
    if (!pgBase) {
      console.log('\n(PostgreSQL skipped: neither /usr/lib/postgresql/15/bin nor VERITAS_TEST_PG_URL)');
      return;
    }
    const name = `veritas_bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new PgClient({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(pgBase);
    url.pathname = `/${name}`;
    try {
      await bench('PostgreSQL', { dataDir: path.join(dataDir, 'pg'), databaseUrl: url.toString() });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  } finally {
    cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** Peak resident memory of the server process so far (Linux VmHWM). */
  peakRssBytes(): number;
  /** Resets the peak to the current resident memory, so a later read covers what follows. */
  resetPeakRss(): void;
  /** CPU seconds the server has used so far (user + system): on a shared machine steadier than the clock. */
  cpuSeconds(): number;
  /** Ends the server; resolves once it has exited, its database connections closed. */
  stop(): Promise<void>;
}

/**
 * What a benchmark may change of the server it starts: auditTrail false to measure what the trail
 * costs, caseOpening false what opening cases costs.
 */
export type BenchServerOptions = Pick<ServerOptions, 'auditTrail' | 'caseOpening'>;

let built = false;

/**
 * The server as it ships: the production build (`node build.mjs`: dist/server.js), made once per
 * benchmark from the sources as they are, so a benchmark never measures an older build. Run from
 * the sources by tsx instead, the server's peak memory counted tsx's own, about 50 MB.
 */
function buildServer() {
  if (built) return;
  execFileSync(process.execPath, ['build.mjs'], { cwd: path.join(__dirname, '..'), stdio: 'inherit' });
  built = true;
}

/** Starts the API over the prepared database in a child process: the production build in plain Node (serve-built.mjs). */
export async function startServerProcess(
  options: EngineOptions,
  env: NodeJS.ProcessEnv = {},
  server: BenchServerOptions = {},
): Promise<ServerProcess> {
  buildServer();
  const child = fork(path.join(__dirname, 'serve-built.mjs'), [JSON.stringify({ ...options, ...server })], {
    env: { ...process.env, ...env },
    execArgv: [],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve(Number(message)));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const status = () => fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return {
    base: `http://127.0.0.1:${port}`,
    child,
    peakRssBytes: () => Number(/VmHWM:\s+(\d+) kB/.exec(status())?.[1] ?? 0) * 1024,
    // Writing 5 to clear_refs resets VmHWM (Linux ≥ 4.0).
    resetPeakRss: () => fs.writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    // /proc/<pid>/stat: utime and stime, in ticks of 1/100 s, are the 12th and 13th fields after the command.
    cpuSeconds: () => {
      const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    // Waited for: a database dropped right after would cut connections the server still holds.
    stop: () => stopChild(child),
  };
}

/** Kills `child` and waits until it has exited (at once if it already has). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill();
  await exited;
}

/** How many device records a database holds (the pick list's summary: no scan of the records). */
export async function storedRecords(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('device_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('total'), eb.lit(0)).as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * `work` on an empty database of its own beside the engine's (a folder beside SQLite's, another
 * database on PostgreSQL's server), removed afterwards: for benchmarks that compare runs, each
 * from the same start.
 */
export async function withFreshDatabase<T>(
  options: EngineOptions,
  run: number,
  work: (fresh: EngineOptions) => Promise<T>,
): Promise<T> {
  if (!options.databaseUrl) {
    const dataDir = `${options.dataDir}-run${run}`;
    fs.rmSync(dataDir, { recursive: true, force: true });
    try {
      return await work({ dataDir });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const url = new URL(options.databaseUrl);
  const name = `${url.pathname.slice(1) || 'veritas_bench'}_run${run}`;
  const admin = new PgClient({ connectionString: options.databaseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    url.pathname = `/${name}`;
    try {
      return await work({ dataDir: `${options.dataDir}-run${run}`, databaseUrl: url.toString() });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

/** How many pairs of runs, with the audit trail and without, the benchmarks of its cost make (BENCH_AUDIT_PAIRS). */
export const AUDIT_PAIRS = Math.max(1, Number(process.env.BENCH_AUDIT_PAIRS ?? 3));
/**
 * How many pairs of runs, with case opening and without, the simulator's and the upload's
 * benchmarks make instead of the audit trail's (BENCH_CASE_PAIRS; 0, the default: none).
 */
export const CASE_PAIRS = Math.max(0, Number(process.env.BENCH_CASE_PAIRS ?? 0));

/** A run's figure (higher is better: rows/s, calls/s) and the same work per second of the server's CPU. */
export interface AuditRunFigure {
  rate: number;
  perCpuSecond: number;
}

/**
 * Runs `once` `pairs` times with `what` on and as many with it off, alternating (on, off, off, on,
 * on, off…: a drift of the machine weighs on both alike), each run numbered; prints the median
 * figures of each and what `what` costs in %, by the clock and by the server's CPU time (which
 * another load on the machine disturbs less).
 */
export async function comparePairs(
  what: string,
  pairs: number,
  unit: string,
  once: (on: boolean, run: number) => Promise<AuditRunFigure>,
): Promise<{ on: AuditRunFigure; off: AuditRunFigure }> {
  const figures = { on: [] as AuditRunFigure[], off: [] as AuditRunFigure[] };
  for (let run = 0; run < 2 * pairs; run++) {
    const pair = Math.floor(run / 2);
    const on = (run % 2 === 0) === (pair % 2 === 0);
    console.log(
      `   -- run ${run + 1} of ${2 * pairs}, ${what} ${on ? 'on' : 'off'} (load average ${os.loadavg()[0]!.toFixed(2)})`,
    );
    figures[on ? 'on' : 'off'].push(await once(on, run + 1));
  }
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const medians = (runs: AuditRunFigure[]): AuditRunFigure => ({
    rate: median(runs.map((r) => r.rate)),
    perCpuSecond: median(runs.map((r) => r.perCpuSecond)),
  });
  const on = medians(figures.on);
  const off = medians(figures.off);
  const cost = (key: keyof AuditRunFigure) => `${(((off[key] - on[key]) / off[key]) * 100).toFixed(1)}%`;
  for (const [name, runs, figure] of [
    ['on: ', figures.on, on],
    ['off:', figures.off, off],
  ] as const) {
    console.log(
      `   ${what} ${name} median ${fmt(figure.rate)} ${unit} (${runs.map((r) => fmt(r.rate)).join(', ')}); ` +
        `${fmt(figure.perCpuSecond)} per server CPU second (${runs.map((r) => fmt(r.perCpuSecond)).join(', ')})`,
    );
  }
  console.log(`   ${what} costs ${cost('rate')} of ${unit}, ${cost('perCpuSecond')} per CPU second (goal ≤ 5%)`);
  return { on, off };
}

/** comparePairs of the audit trail, AUDIT_PAIRS pairs. */
export function compareAuditTrail(
  unit: string,
  once: (auditTrail: boolean, run: number) => Promise<AuditRunFigure>,
): Promise<{ on: AuditRunFigure; off: AuditRunFigure }> {
  return comparePairs('audit trail', AUDIT_PAIRS, unit, once);
}

/** comparePairs of case opening (ServerOptions.caseOpening), CASE_PAIRS pairs. */
export function compareCaseOpening(
  unit: string,
  once: (caseOpening: boolean, run: number) => Promise<AuditRunFigure>,
): Promise<{ on: AuditRunFigure; off: AuditRunFigure }> {
  return comparePairs('case opening', CASE_PAIRS, unit, once);
}
