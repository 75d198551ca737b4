// Benchmark of api/generate_csv/ over 500k records (the last 45 days of synthetic data): time to
// the last byte, rows received, the server's peak memory during the report, and the slowest
// user/get_role/ answer among calls made every 20 ms while the report streams.
// Goals: ≤ 10 s, ≤ 200 MB, ≤ 100 ms. Runs on SQLite, and on PostgreSQL 15 when it is installed
// (a throwaway cluster) or VERITAS_TEST_PG_URL names a server. The server runs in a child process.
// BENCH_DATABASE_URL or BENCH_DATA_DIR: a database of millions loaded beforehand (load:volume),
// reported over the last 30 days, uncompressed and gzip (BENCH_ENCODINGS), BENCH_RUNS times each
// (its rows printed, not compared).
// Wall times depend on what else the machine runs, so each run also prints the server's CPU time
// and the load average.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import zlib from 'node:zlib';
import { DEMO_PASSWORD, loadVolumeData } from '../seed';
import { localMidnight } from '@veritas/shared/domain';
import { WebClient } from '../sim/web-client';
import {
  forEachEngine,
  mb,
  probeGetRole,
  startServerProcess,
  storedRecords,
  withDatabase,
  type EngineOptions,
  type ServerProcess,
} from './harness';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 500_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
/** Over a database loaded beforehand: the encodings asked for (one at a time keeps a run of 10M short). */
const ENCODINGS = (process.env.BENCH_ENCODINGS ?? 'identity,gzip').split(',');
/** The synthetic records were created within the last 45 days (seed/demo.ts). */
const SPAN_DAYS = 45;
const GOALS = { ms: 10_000, rssBytes: 200 * 1024 * 1024, probeMs: 100 };

const dayText = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

interface Run {
  ms: number;
  rows: number;
  /** The report's bytes, and those sent (fewer with gzip). */
  bytes: number;
  wireBytes: number;
  cpuSeconds: number;
  peakRssBytes: number;
  probes: number;
  slowestProbeMs: number;
}

/** CPU time a process has used (Linux: user + system clock ticks of /proc/PID/stat, 100 a second). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Downloads the report, counting its lines as they arrive, while probing get_role every 20 ms. */
function runReport(
  server: ServerProcess,
  session: { cookie: string; xsrf: string },
  range: { start: string; end: string },
  encoding: string,
) {
  const body = JSON.stringify({ start_date: range.start, end_date: range.end });
  server.resetPeakRss();
  const cpuBefore = cpuSeconds(server.child.pid!);
  const started = process.hrtime.bigint();
  const probe = probeGetRole(server.base, session.cookie);
  return new Promise<Run>((resolve, reject) => {
    const fail = (error: Error) => {
      probe.stop().catch(() => undefined);
      reject(error);
    };
    const request = http.request(
      `${server.base}/veritas/api/generate_csv/`,
      {
        method: 'POST',
        headers: {
          cookie: session.cookie,
          'x-xsrf-token': session.xsrf,
          'content-type': 'application/json',
          'accept-encoding': encoding,
        },
      },
      (response) => {
        if (response.statusCode !== 200) return fail(new Error(`generate_csv: status ${response.statusCode}`));
        const received = response.headers['content-encoding'] ?? 'identity';
        if (received !== encoding) return fail(new Error(`asked for ${encoding}, received ${received}`));
        // Decompressed as it arrives, like a browser; lines are counted without keeping the text.
        let wireBytes = 0;
        response.on('data', (chunk: Buffer) => (wireBytes += chunk.length));
        const stream = encoding === 'gzip' ? response.pipe(zlib.createGunzip()) : response;
        let lines = 0;
        let bytes = 0;
        stream.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
        });
        stream.on('error', fail);
        stream.on('end', async () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const peakRssBytes = server.peakRssBytes();
          const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
          try {
            const { probes, slowestMs } = await probe.stop();
            // The header is the first line.
            resolve({
              ms,
              rows: lines - 1,
              bytes,
              wireBytes,
              cpuSeconds: cpu,
              peakRssBytes,
              probes,
              slowestProbeMs: slowestMs,
            });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', fail).end(body);
  });
}

const verdict = (ok: boolean) => (ok ? 'OK' : 'MISSED');

async function bench(label: string, options: EngineOptions) {
  if (options.preloaded) return benchPreloaded(label, options);
  console.log(`\n== ${label}: ${RECORDS.toLocaleString('en-US')} records`);
  const today = localMidnight(dayText(new Date()))!;
  const first = new Date(today);
  first.setDate(first.getDate() - SPAN_DAYS);
  const range = { start: dayText(first), end: dayText(today) };

  const loadStarted = Date.now();
  // Every synthetic record with a created date falls in the range; the others are null or 'not-a-date'.
  const expectedRows = await withDatabase(options, async (db) => {
    await loadVolumeData(db, { records: RECORDS });
    const { count } = await db.kysely
      .selectFrom('device_records')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('created_date', 'is not', null)
      .where('created_date', '<>', 'not-a-date')
      .executeTakeFirstOrThrow();
    return Number(count);
  });
  console.log(
    `   data loaded in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s; report ${range.start} … ${range.end}`,
  );

  const server = await startServerProcess(options);
  try {
    const client = new WebClient(server.base);
    if ((await client.login('admin_demo', DEMO_PASSWORD)).status !== 200) throw new Error('login failed');
    const session = {
      cookie: client.cookieHeader(),
      xsrf: client.cookie('XSRF-TOKEN')!,
    };
    server.resetPeakRss(); // so the peak reads as the memory in use now
    console.log(
      `   server RSS before the report ${mb(server.peakRssBytes())}; ${expectedRows.toLocaleString('en-US')} records have a created date`,
    );

    await runReport(server, session, range, 'identity'); // warm-up: caches, JIT
    for (const encoding of ['identity', 'gzip'].flatMap((e) => Array<string>(RUNS).fill(e))) {
      const run = await runReport(server, session, range, encoding);
      console.log(
        `   ${encoding.padEnd(8)} ${run.ms.toFixed(0).padStart(6)} ms ${verdict(run.ms <= GOALS.ms)} (≤ 10 s)` +
          `   rows ${run.rows.toLocaleString('en-US')} ${verdict(run.rows === expectedRows)}` +
          `   peak RSS ${mb(run.peakRssBytes)} ${verdict(run.peakRssBytes <= GOALS.rssBytes)} (≤ 200 MB)` +
          `   get_role slowest ${run.slowestProbeMs.toFixed(0)} ms of ${run.probes} ${verdict(run.slowestProbeMs <= GOALS.probeMs)} (≤ 100 ms)` +
          `   [server CPU ${run.cpuSeconds.toFixed(1)} s, load average ${os.loadavg()[0]!.toFixed(1)}]`,
      );
    }
  } finally {
    await server.stop();
  }
}

/** The last 30 days as the dashboard counts them: 29 days back plus today (docs/dashboard.md#timeframes). */
const LAST_DAYS = 30;

/**
 * The last 30 days over a database loaded beforehand, uncompressed then gzip, RUNS times each
 * (BENCH_RUNS; medians printed last): rows, bytes, seconds, rows a second, the server's peak RSS
 * and the slowest get_role answered meanwhile.
 */
async function benchPreloaded(label: string, options: EngineOptions) {
  console.log(
    `\n== ${label}: ${(await withDatabase(options, storedRecords)).toLocaleString('en-US')} records, loaded beforehand`,
  );
  const today = localMidnight(dayText(new Date()))!;
  const first = new Date(today);
  first.setDate(first.getDate() - (LAST_DAYS - 1));
  const range = { start: dayText(first), end: dayText(today) };
  const server = await startServerProcess(options);
  try {
    const client = new WebClient(server.base);
    if ((await client.login('admin_demo', DEMO_PASSWORD)).status !== 200) throw new Error('login failed');
    const session = {
      cookie: client.cookieHeader(),
      xsrf: client.cookie('XSRF-TOKEN')!,
    };
    console.log(`   last ${LAST_DAYS} days: ${range.start} … ${range.end}`);
    for (const encoding of ENCODINGS) {
      const runs: Run[] = [];
      for (let run = 0; run < RUNS; run++) {
        server.resetPeakRss();
        runs.push(await runReport(server, session, range, encoding));
        console.log(`   ${encoding.padEnd(8)} ${describe(runs.at(-1)!)}`);
      }
      const medianRun = runs.toSorted((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!;
      console.log(`   ${encoding.padEnd(8)} median of ${RUNS}: ${describe(medianRun)}`);
    }
  } finally {
    await server.stop();
  }
}

function describe(run: Run): string {
  const seconds = run.ms / 1000;
  const wire = run.wireBytes === run.bytes ? '' : ` (${mb(run.wireBytes)} sent)`;
  return (
    `rows ${run.rows.toLocaleString('en-US')}, ${mb(run.bytes)}${wire}, ${seconds.toFixed(1)} s, ` +
    `${Math.round(run.rows / seconds).toLocaleString('en-US')} rows/s, peak RSS ${mb(run.peakRssBytes)}, ` +
    `get_role slowest ${run.slowestProbeMs.toFixed(0)} ms of ${run.probes} ` +
    `[server CPU ${run.cpuSeconds.toFixed(1)} s, load average ${os.loadavg()[0]!.toFixed(1)}]`
  );
}

forEachEngine(bench, { preloadable: true }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
