// Benchmark of api/dashboard/ (docs/dashboard.md#server-side-figures): the median time of the call
// for all hubs and for one hub, for each timeframe, in three time zones (Asia/Kolkata: days
// starting at :30, so part of each end is read from the records; UTC: whole UTC days; and
// America/New_York); then 20 calls at once, five times over, while an operator submits scans
// through the mobile app's call (the figures change meanwhile) and user/get_role/ is called every
// 20 ms: the calls' and get_role's p99, and the server's peak memory.
// Goal: every call ≤ 300 ms at 1M records on SQLite and 10M on PostgreSQL (the default sizes;
// BENCH_RECORDS sets both). Up to 300k records, the answers are also compared with dashboardStats()
// over api/get_status/ in the same zone. The records are the volume loader's
// (seed/volume-data.ts: created over the last 45 days), which rebuilds the summaries at its end.
// BENCH_DATABASE_URL or BENCH_DATA_DIR: a database loaded beforehand (load:volume) is read instead.
import http from 'node:http';
import os from 'node:os';
import {
  dashboardStats,
  TIMEFRAMES,
  type DashboardStats,
  type DeviceRecord,
  type Selection,
} from '@veritas/shared/domain';
import { inLocalZone } from '@veritas/shared/testing/time-zone';
import { rebuildDashboardSummaries } from '../src/dashboard/dashboard-summaries';
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

const DEFAULT_RECORDS: Record<string, number> = { SQLite: 1_000_000, PostgreSQL: 10_000_000 };
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ZONES = ['Asia/Kolkata', 'UTC', 'America/New_York'];
const HUBS = ['all', 'blr01'];
const GOAL_MS = 300;
const CONCURRENT = 20;
const ROUNDS = 5;
/** Answers compared with the console's computation up to this many records (get_status is read whole). */
const CHECK_UP_TO = 300_000;

const verdict = (ok: boolean) => (ok ? 'OK' : 'MISSED');
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function get(url: string, cookie: string): Promise<{ ms: number; body: string }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode} ${body.slice(0, 200)}`));
          else resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, body });
        });
      })
      .on('error', reject);
  });
}

const dashboardUrl = (base: string, selection: Selection, zone: string) =>
  `${base}/veritas/api/dashboard/?${new URLSearchParams({ hub: selection.hub, timeframe: selection.timeframe, tz: zone })}`;

/** An operator submitting pending records one after the other through app/scan/submit/, until stopped. */
function startWriter(base: string, trackingIds: string[]) {
  let stopped = false;
  let written = 0;
  const done = (async () => {
    const login = await fetch(`${base}/veritas/app/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'wm_blr', password: DEMO_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    for (const [i, trackingId] of trackingIds.entries()) {
      if (stopped) break;
      const mac = (0x02_00_00_00_00_00 + i).toString(16).padStart(12, '0');
      const answer = await fetch(`${base}/veritas/app/scan/submit/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          tracking_id: trackingId,
          mac_address: mac,
          model: 'Galaxy S23',
          hardware_id: `HW-BENCH-${i}`,
        }),
      });
      await answer.arrayBuffer();
      if (answer.status === 200) written++;
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return written;
    },
  };
}

async function bench(label: string, options: EngineOptions) {
  let records = Number(process.env.BENCH_RECORDS ?? DEFAULT_RECORDS[label]);
  const pending = await withDatabase(options, async (db) => {
    if (options.preloaded) {
      records = await storedRecords(db);
      console.log(`\n== ${label}: ${records.toLocaleString('en-US')} records, loaded beforehand`);
    } else {
      console.log(`\n== ${label}: ${records.toLocaleString('en-US')} records`);
      const loading = Date.now();
      await loadVolumeData(db, { records });
      console.log(`   data loaded in ${seconds(loading)} (summaries rebuilt at its end)`);
      const started = Date.now();
      await rebuildDashboardSummaries(db);
      console.log(`   summaries rebuilt again alone in ${seconds(started)}`);
    }
    const sizes = [];
    for (const table of ['dashboard_counts', 'dashboard_operators', 'dashboard_series'] as const) {
      const { rows } = await db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('rows'))
        .executeTakeFirstOrThrow()
        .then((row) => ({ rows: Number(row.rows) }));
      sizes.push(`${table} ${rows.toLocaleString('en-US')}`);
    }
    console.log(`   summaries: ${sizes.join(', ')} rows`);
    const rows = await db.kysely
      .selectFrom('device_records')
      .select('tracking_id')
      .where('hub_code', '=', 'BLR01')
      .where('is_submit', '=', 0)
      .limit(5000)
      .execute();
    return rows.map((row) => row.tracking_id);
  });

  const server = await startServerProcess(options);
  try {
    const client = new WebClient(server.base);
    if ((await client.login('admin_demo', DEMO_PASSWORD)).status !== 200) throw new Error('login failed');
    const cookie = client.cookieHeader();
    const call = async (selection: Selection, zone: string) => {
      const { ms, body } = await get(dashboardUrl(server.base, selection, zone), cookie);
      return { ms, stats: JSON.parse(body) as DashboardStats };
    };

    if (records <= CHECK_UP_TO) {
      const all = JSON.parse((await get(`${server.base}/veritas/api/get_status/`, cookie)).body) as DeviceRecord[];
      let equal = 0;
      let compared = 0;
      for (const zone of ZONES) {
        for (const hub of HUBS) {
          for (const { value: timeframe } of TIMEFRAMES) {
            const { stats } = await call({ hub, timeframe }, zone);
            const expected = inLocalZone(zone, () => dashboardStats(all, { hub, timeframe }, new Date()));
            compared++;
            if (JSON.stringify(stats) === JSON.stringify(expected)) equal++;
            else console.log(`   MISMATCH ${zone} ${hub} ${timeframe}`);
          }
        }
      }
      console.log(
        `   answers equal to dashboardStats() over get_status: ${equal} of ${compared} ${verdict(equal === compared)}`,
      );
    }

    console.log(`   median of ${RUNS} calls (max), ms; goal ≤ ${GOAL_MS} ms`);
    console.log(`   ${'zone'.padEnd(17)} ${'hub'.padEnd(6)} ${TIMEFRAMES.map((t) => t.value.padStart(13)).join(' ')}`);
    let slowest = 0;
    for (const zone of ZONES) {
      for (const hub of HUBS) {
        const cells: string[] = [];
        for (const { value: timeframe } of TIMEFRAMES) {
          await call({ hub, timeframe }, zone); // warm-up
          const times: number[] = [];
          for (let run = 0; run < RUNS; run++) times.push((await call({ hub, timeframe }, zone)).ms);
          slowest = Math.max(slowest, median(times));
          cells.push(`${median(times).toFixed(1)} (${Math.max(...times).toFixed(0)})`.padStart(13));
        }
        console.log(`   ${zone.padEnd(17)} ${hub.padEnd(6)} ${cells.join(' ')}`);
      }
    }
    console.log(`   slowest median ${slowest.toFixed(1)} ms ${verdict(slowest <= GOAL_MS)}`);

    // 20 calls at once, while an operator submits and the console asks get_role every 20 ms.
    server.resetPeakRss();
    const probe = probeGetRole(server.base, cookie);
    const writer = startWriter(server.base, pending);
    const latencies: number[] = [];
    const started = Date.now();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const calls = Array.from({ length: CONCURRENT }, (_, i) => {
          const timeframe = TIMEFRAMES[i % TIMEFRAMES.length]!.value;
          return call({ hub: HUBS[i % HUBS.length]!, timeframe }, ZONES[i % ZONES.length]!);
        });
        for (const { ms } of await Promise.all(calls)) latencies.push(ms);
      }
    } finally {
      const written = await writer.stop();
      const { latencies: roles } = await probe.stop();
      const sorted = [...latencies].sort((a, b) => a - b);
      const roleTimes = [...roles].sort((a, b) => a - b);
      console.log(
        `   ${ROUNDS} × ${CONCURRENT} calls at once in ${seconds(started)}: p50 ${percentile(sorted, 50).toFixed(0)} ms, ` +
          `p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${Math.max(...sorted).toFixed(0)} ms; ` +
          `get_role p99 ${percentile(roleTimes, 99).toFixed(0)} ms (max ${Math.max(0, ...roleTimes).toFixed(0)} ms, ${roleTimes.length} calls); ` +
          `${written} scans submitted meanwhile; server peak RSS ${mb(server.peakRssBytes())} [load average ${os.loadavg()[0]!.toFixed(1)}]`,
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
