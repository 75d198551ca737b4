// Benchmark of api/get_manufacturer/: 1,000 searches for random prefixes (1–4 characters of real
// manufacturer names, as someone types them), one after another over real HTTP, timed to the last
// byte. Prints p50, p95 and max per engine against the goal p95 ≤ 20 ms, the same figures for an
// empty search as a baseline, and how long the migrations take to load the IEEE registry.
import { DEMO_PASSWORD, loadVolumeData } from '../seed';
import { WebClient } from '../sim/web-client';
import { percentile } from '../sim/simulation';
import { forEachEngine, startServerProcess, withDatabase, type EngineOptions } from './harness';

const SEARCHES = 1000;
const WARM_UP = 50;
const GOAL_P95_MS = 20;

function randomPrefixes(names: string[], count: number): string[] {
  return Array.from({ length: count }, () => {
    const name = names[Math.floor(Math.random() * names.length)]!;
    return name.slice(0, 1 + Math.floor(Math.random() * 4));
  });
}

async function bench(label: string, options: EngineOptions) {
  console.log(`\n== ${label}: get_manufacturer, ${SEARCHES.toLocaleString('en-US')} random prefixes of 1–4 characters`);
  const started = Date.now();
  const names = await withDatabase(options, async (db) =>
    (await db.kysely.selectFrom('manufacturers').select('manufacturer').execute()).map((row) => row.manufacturer),
  );
  console.log(
    `   registry loaded by the migrations in ${((Date.now() - started) / 1000).toFixed(2)} s (${names.length.toLocaleString('en-US')} manufacturers)`,
  );
  await withDatabase(options, (db) => loadVolumeData(db, { records: 0 }));

  const server = await startServerProcess(options);
  try {
    const client = new WebClient(server.base);
    if ((await client.login('admin_demo', DEMO_PASSWORD)).status !== 200) throw new Error('login failed');
    const cookie = client.cookieHeader();
    const searchFor = async (prefix: string) => {
      const begun = process.hrtime.bigint();
      const response = await fetch(
        `${server.base}/veritas/api/get_manufacturer/?search=${encodeURIComponent(prefix)}`,
        {
          headers: { cookie },
        },
      );
      const found = (await response.json()) as unknown[];
      if (response.status !== 200 || found.length === 0)
        throw new Error(`search ${JSON.stringify(prefix)}: ${response.status}, ${found.length} found`);
      return Number(process.hrtime.bigint() - begun) / 1e6;
    };

    const timed = async (searches: string[]) => {
      const times: number[] = [];
      for (const search of searches) times.push(await searchFor(search));
      return times.sort((a, b) => a - b);
    };
    const figures = (times: number[]) =>
      `p50 ${percentile(times, 50).toFixed(1)} ms   p95 ${percentile(times, 95).toFixed(1)} ms   max ${times[times.length - 1]!.toFixed(1)} ms`;

    await timed(randomPrefixes(names, WARM_UP));
    const times = await timed(randomPrefixes(names, SEARCHES));
    const p95 = percentile(times, 95);
    console.log(
      `   ${figures(times)}   ${p95 <= GOAL_P95_MS ? `OK (p95 ≤ ${GOAL_P95_MS} ms)` : `MISSED (p95 > ${GOAL_P95_MS} ms)`}`,
    );
    // The same call with an empty search (the first names, straight from the index): what HTTP,
    // the session check and the machine cost before any searching.
    console.log(`   baseline, empty search: ${figures(await timed(Array<string>(SEARCHES).fill('')))}`);
  } finally {
    await server.stop();
  }
}

forEachEngine(bench).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
