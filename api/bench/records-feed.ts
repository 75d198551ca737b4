// Benchmark of the records feed (GET api/v1/records/, docs/integrations.md#records-feed) over a
// database already holding volume (load:volume): BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR
// (SQLite); without either, BENCH_RECORDS (default 100,000) are loaded into a throwaway database of
// each engine first. The server runs in its own process as `pnpm start` runs it, called with an API
// key of the benchmark's own (records:read).
//
//   pnpm --filter api bench:records-feed
//
// For each kind of page (the feed's beginning, a cursor in its middle, updated_since in its
// middle, the end, a page of 1,000), BENCH_RUNS (default 9) runs after one to warm up: median and
// p95 ms, to the last byte. Goal: each page ≤ 100 ms at 10M records.
import os from 'node:os';
import type { RecordFeedPage } from '@veritas/shared/domain';
import { createApiKey } from '../src/integrations/api-keys';
import { SYSTEM } from '../src/audit/trail';
import { loadVolumeData } from '../seed/volume-data';
import { forEachEngine, median, startServerProcess, storedRecords, withDatabase, type EngineOptions } from './harness';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 9));
const GOAL_MS = 100;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const percentile = (values: number[], fraction: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(fraction * values.length) - 1)]!;

/** The key, and where the feed's middle is: a cursor and the time of its change. */
async function prepare(options: EngineOptions) {
  return withDatabase(options, async (db) => {
    if (!options.preloaded) await loadVolumeData(db, { records: Number(process.env.BENCH_RECORDS ?? 100_000) });
    const records = await storedRecords(db);
    const { secret } = await createApiKey(
      db,
      { label: `bench ${Date.now()}`, scopes: ['records:read'], expiresOn: `${new Date().getUTCFullYear() + 1}-12-31` },
      SYSTEM,
    );
    const middle = await db.kysely
      .selectFrom('device_records')
      .select(['change_order', 'id', 'changed_ms'])
      .orderBy('change_order')
      .orderBy('id')
      .offset(Math.floor(records / 2))
      .limit(1)
      .executeTakeFirstOrThrow();
    const last = await db.kysely
      .selectFrom('device_records')
      .select(['change_order', 'id'])
      .orderBy('change_order', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    return { records, secret, middle, end: `${last.change_order}~${last.id}` };
  });
}

async function bench(label: string, options: EngineOptions) {
  const { records, secret, middle, end } = await prepare(options);
  // The key's rate is not what is measured.
  const server = await startServerProcess(options, { VERITAS_API_KEY_RATE: '1000000' });
  try {
    const call = async (query: string) => {
      const started = process.hrtime.bigint();
      const response = await fetch(`${server.base}/veritas/api/v1/records/${query}`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      const body = (await response.json()) as RecordFeedPage;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(body)}`);
      return { ms, body };
    };
    const pages: [string, string][] = [
      ['beginning, limit 100', ''],
      ['a cursor in the middle, limit 100', `?after=${middle.change_order}~${middle.id}`],
      [
        `updated_since the middle's time, limit 100`,
        `?updated_since=${new Date(Number(middle.changed_ms)).toISOString()}`,
      ],
      ['the end (nothing new)', `?after=${end}`],
      ['a cursor in the middle, limit 1000', `?after=${middle.change_order}~${middle.id}&limit=1000`],
    ];
    console.log(`\n${label}, ${fmt(records)} records: median (p95) of ${RUNS}, ms`);
    const missed: string[] = [];
    for (const [name, query] of pages) {
      await call(query);
      const times: number[] = [];
      let rows = 0;
      for (let run = 0; run < RUNS; run++) {
        const { ms, body } = await call(query);
        times.push(ms);
        rows = body.records.length;
      }
      if (median(times) > GOAL_MS) missed.push(name);
      console.log(
        `   ${name.padEnd(44)} ${median(times).toFixed(1).padStart(7)} (${percentile(times, 0.95).toFixed(1)})  ${rows} records`,
      );
    }
    console.log(
      `   each page ≤ ${GOAL_MS} ms: ${missed.length === 0 ? 'OK' : `MISSED by ${missed.join('; ')}`} (load average ${os.loadavg()[0]!.toFixed(2)})`,
    );
  } finally {
    await server.stop();
  }
}

forEachEngine(bench, { preloadable: true }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
