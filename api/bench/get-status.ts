// Benchmark of api/get_status/ over 100k records: time to the last byte and bytes on the wire,
// uncompressed, gzip and brotli, and the slowest user/get_role/ answer among calls made
// every 20 ms meanwhile. Runs on SQLite, and on PostgreSQL 15 when it is installed
// (a throwaway cluster) or VERITAS_TEST_PG_URL names a server. Goal: ≤ 1.5 s.
// BENCH_DATABASE_URL or BENCH_DATA_DIR: a database of millions loaded beforehand (load:volume),
// read once with gzip. The server runs in a child process, as it would beside a browser, so the client's work of
// receiving the bytes does not share its event loop.
import http from 'node:http';
import { DEMO_PASSWORD, loadVolumeData } from '../seed';
import { WebClient } from '../sim/web-client';
import { percentile } from '../sim/simulation';
import {
  forEachEngine,
  mb,
  median,
  probeGetRole,
  startServerProcess,
  storedRecords,
  withDatabase,
  type EngineOptions,
} from './harness';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const RUNS = 5;

interface Measure {
  ms: number;
  bytes: number;
}

function fetchRaw(url: string, headers: Record<string, string>): Promise<Measure> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`));
          else resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, bytes });
        });
      })
      .on('error', reject);
  });
}

async function bench(label: string, options: EngineOptions) {
  if (options.preloaded) {
    console.log(
      `\n== ${label}: ${(await withDatabase(options, storedRecords)).toLocaleString('en-US')} records, loaded beforehand; gzip once`,
    );
  } else {
    console.log(`\n== ${label}: ${RECORDS.toLocaleString('en-US')} records`);
    const started = Date.now();
    await withDatabase(options, (db) => loadVolumeData(db, { records: RECORDS }));
    console.log(`   data loaded in ${((Date.now() - started) / 1000).toFixed(2)} s`);
  }
  // Millions of records: one gzip answer (minutes), to show it streams with memory flat.
  const encodings = options.preloaded ? ['gzip'] : ['identity', 'gzip', 'br'];
  const runCount = options.preloaded ? 1 : RUNS;

  const server = await startServerProcess(options);
  try {
    const { base } = server;
    const client = new WebClient(base);
    if ((await client.login('admin_demo', DEMO_PASSWORD)).status !== 200) throw new Error('login failed');
    const cookie = client.cookieHeader();
    const url = `${base}/veritas/api/get_status/`;

    if (!options.preloaded) await fetchRaw(url, { cookie }); // warm-up: caches, JIT
    for (const encoding of encodings) {
      const runs: Measure[] = [];
      server.resetPeakRss();
      const probe = probeGetRole(base, cookie);
      try {
        for (let run = 0; run < runCount; run++)
          runs.push(await fetchRaw(url, { cookie, 'accept-encoding': encoding }));
      } catch (error) {
        // Stop probing, or its timer would keep the benchmark from exiting.
        await probe.stop().catch(() => undefined);
        throw error;
      }
      const { probes, slowestMs, latencies } = await probe.stop();
      const ms = median(runs.map((r) => r.ms));
      console.log(
        `   ${encoding.padEnd(8)} median ${ms.toFixed(0).padStart(5)} ms (min ${Math.min(...runs.map((r) => r.ms)).toFixed(0)}, max ${Math.max(...runs.map((r) => r.ms)).toFixed(0)})   ${mb(runs[0]!.bytes).padStart(9)}   ${ms <= 1500 ? 'OK ≤ 1.5 s' : 'SLOWER than 1.5 s'}` +
          `   get_role meanwhile: p99 ${percentile(
            [...latencies].sort((a, b) => a - b),
            99,
          ).toFixed(0)} ms, slowest ${slowestMs.toFixed(0)} ms of ${probes}` +
          `   server peak RSS ${mb(server.peakRssBytes())}`,
      );
    }
  } finally {
    await server.stop();
  }
}

forEachEngine(bench, { preloadable: true }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
