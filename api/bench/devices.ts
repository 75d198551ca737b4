// Benchmark of the server-side pick list (api/devices/, count/, hubs/) over bulk-loaded volume:
// 1M records on SQLite and 10M on PostgreSQL by default (BENCH_RECORDS for both, or
// BENCH_SQLITE_RECORDS / BENCH_PG_RECORDS; BENCH_RUNS runs per figure, default 5), 40 hubs. Prints
// the load's rows per second, then the median time of each call over HTTP, server in its own
// process: first page, a page by hub, by status, with a rare search (six characters from the
// middle of an existing tracking ID) and a common short one ('12'), 100 pages followed by cursor
// (to depth 10,000), tracking-ID searches as typed (whole, start, end, middle, 1 to 5
// characters, and 1 and 2 that no ID holds: page and count), counts with and without a search, the
// hub choices. Prints, asserts nothing.
// BENCH_DATABASE_URL or BENCH_DATA_DIR: a database loaded beforehand (load:volume) is read instead.
import http from 'node:http';
import zlib from 'node:zlib';
import type { DeviceRecord } from '@veritas/shared/domain';
import { DEMO_PASSWORD } from '../seed';
import { loadVolumeData } from '../seed/volume-data';
import { WebClient } from '../sim/web-client';
import { forEachEngine, median, startServerProcess, storedRecords, withDatabase, type EngineOptions } from './harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const HUBS = 40;
const recordsFor = (label: string) =>
  Number(
    (label === 'SQLite' ? process.env.BENCH_SQLITE_RECORDS : process.env.BENCH_PG_RECORDS) ??
      process.env.BENCH_RECORDS ??
      (label === 'SQLite' ? 1_000_000 : 10_000_000),
  );

/** What the three calls answer, as far as the benchmark reads it. */
interface Body {
  records?: DeviceRecord[];
  next?: string | null;
  total?: number;
  more?: boolean;
  hubs?: string[];
}

interface Answer {
  ms: number;
  body: Body;
}

function get(url: string, cookie: string): Promise<Answer> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie, 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          if (response.statusCode !== 200) return reject(new Error(`${url}: status ${response.statusCode}`));
          // Timed to the last byte; decoded afterwards, for what the benchmark reads back.
          const raw = Buffer.concat(chunks);
          const text =
            response.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw).toString() : raw.toString();
          resolve({ ms, body: JSON.parse(text) as Body });
        });
      })
      .on('error', reject);
  });
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function bench(label: string, options: EngineOptions) {
  if (options.preloaded) {
    console.log(`\n== ${label}: ${fmt(await withDatabase(options, storedRecords))} records, loaded beforehand`);
  } else {
    const records = recordsFor(label);
    console.log(`\n== ${label}: ${fmt(records)} records, ${HUBS} hubs`);
    const started = Date.now();
    const times = await withDatabase(options, (db) => loadVolumeData(db, { records, hubs: HUBS }));
    const total = (Date.now() - started) / 1000;
    console.log(
      `   loaded in ${total.toFixed(1)} s (${fmt(records / total)} rows/s overall; insert ${(times.insertMs / 1000).toFixed(1)} s, ` +
        `${fmt(records / Math.max(times.insertMs / 1000, 0.001))} rows/s; indexes, search and summaries ${(times.indexMs / 1000).toFixed(1)} s)`,
    );
  }

  const server = await startServerProcess(options);
  try {
    const client = new WebClient(server.base);
    if ((await client.login('admin_demo', DEMO_PASSWORD)).status !== 200) throw new Error('login failed');
    const cookie = client.cookieHeader();
    const url = (call: string, params: Record<string, string> = {}) =>
      `${server.base}/veritas/api/${call}?${new URLSearchParams(params)}`;

    /** The median of RUNS calls, after one to warm up; what the last call answered. */
    async function timed(name: string, call: () => Promise<Answer>, note: (answer: Answer) => string = () => '') {
      let last = await call();
      const runs: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        last = await call();
        runs.push(last.ms);
      }
      const extra = note(last);
      console.log(
        `   ${name.padEnd(42)} median ${median(runs).toFixed(1).padStart(8)} ms  (min ${Math.min(...runs).toFixed(1)}, max ${Math.max(...runs).toFixed(1)})${extra ? `  ${extra}` : ''}`,
      );
      return last;
    }

    const page = (params: Record<string, string>) => () => get(url('devices/', params), cookie);
    const rows = ({ body }: Answer) => `${body.records!.length} rows`;
    const first = await timed('first page (100)', page({}), rows);
    await timed('page by hub (HUB17)', page({ hub: 'HUB17' }), rows);
    await timed('page by status (detached)', page({ status: 'detached' }), rows);
    await timed('page by result (E009)', page({ result: 'E009' }), rows);
    await timed('page by hub, status and result', page({ hub: 'HUB17', status: 'verified', result: 'passed' }), rows);

    // An existing record (the 101st in the order): six of the digits from the middle of its tracking ID.
    const sample = (await get(url('devices/', { limit: '1', after: first.body.next! }), cookie)).body.records![0]!;
    const trackingId: string = sample.tracking_id.tracking_id;
    const start = Math.floor((trackingId.length - 6) / 2) + 2;
    const rare = trackingId.slice(start, start + 6);
    const rareTotal = (await get(url('devices/count/', { q: rare }), cookie)).body.total!;
    await timed(`page with rare q '${rare}' (${fmt(rareTotal)} match)`, page({ q: rare }), rows);
    await timed("page with common q '12'", page({ q: '12' }), rows);
    await timed("page with common q '12' and hub", page({ q: '12', hub: 'HUB17' }), rows);

    // Tracking-ID search as people type it: the whole ID (pasted or scanned), its start, its end,
    // the middle, lower-cased, then needles of 1 to 5 characters, and 1 and 2 that no ID holds; each
    // page, then its count.
    const counted = ({ body }: Answer) => `total ${fmt(body.total!)}${body.more ? '+' : ''}`;
    const count = (params: Record<string, string>) => () => get(url('devices/count/', params), cookie);
    const needles: [string, string][] = [
      ['whole ID', trackingId],
      ['whole ID, lower case', trackingId.toLowerCase()],
      ['first 8 characters', trackingId.slice(0, 8)],
      ['first 10 characters', trackingId.slice(0, 10)],
      ['last 6 characters', trackingId.slice(-6)],
      ['last 8 characters', trackingId.slice(-8)],
      ['6 from the middle', rare],
      ['5 characters', trackingId.slice(-7, -2)],
      ['4 characters', trackingId.slice(-6, -2)],
      ['3 characters', trackingId.slice(-5, -2)],
      ['2 characters', trackingId.slice(-4, -2)],
      ['1 character', trackingId.slice(-3, -2)],
      // Letters no generated ID holds (the prefix is FMPP): every ID is read to find none.
      ['1 letter no ID holds', 'q'],
      ['2 letters no ID holds', 'zz'],
    ];
    for (const [what, q] of needles) {
      await timed(`page, q = ${what} '${q}'`, page({ q }), rows);
      await timed(`count, q = ${what}`, count({ q }), counted);
    }

    const depth = async (): Promise<Answer> => {
      const begun = process.hrtime.bigint();
      let after: string | undefined;
      let body: Body = {};
      for (let n = 0; n < 100; n++) {
        body = (await get(url('devices/', after ? { after } : {}), cookie)).body;
        after = body.next ?? undefined;
      }
      return { ms: Number(process.hrtime.bigint() - begun) / 1e6, body };
    };
    await timed('100 pages by cursor, to depth 10,000', depth, ({ ms }) => `${(ms / 100).toFixed(1)} ms a page`);

    await timed('count, no filter', count({}), counted);
    await timed('count by hub and status', count({ hub: 'HUB17', status: 'submitted' }), counted);
    await timed(`count with rare q '${rare}'`, count({ q: rare }), counted);
    await timed("count with common q '12'", count({ q: '12' }), counted);
    await timed(
      'hubs',
      () => get(url('devices/hubs/'), cookie),
      ({ body }) => `${body.hubs!.length} hubs`,
    );
  } finally {
    await server.stop();
  }
}

forEachEngine(bench, { preloadable: true }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
