// Benchmark of the case queue (api/cases/, count/) and of a bulk resolve job (api/cases/jobs/) over
// a database already holding volume with its cases (load:volume, or load:cases on older volume):
// BENCH_DATA_DIR (SQLite) or BENCH_DATABASE_URL (PostgreSQL); without either, BENCH_RECORDS
// (default 100,000) are loaded into a throwaway database of each engine first. The server runs in
// its own process as `pnpm start` runs it (the production build), signed in as an admin of the
// benchmark's own (bench_admin, added or its password reset: volume databases need not hold the
// demo users).
//
//   pnpm --filter api bench:cases       the queue: for each filter, the first page (limit 50) and
//                                       its count, BENCH_RUNS (default 7) runs after one to warm up;
//                                       median and p95 ms. Goal: first page ≤ 200 ms on PostgreSQL
//                                       at 10M records.
//   pnpm --filter api bench:case-jobs   a job resolving up to BENCH_JOB_CASES (default 100,000)
//                                       active cases chosen by filters (a state and a range of
//                                       days), polled to its end: total time and cases/s. It
//                                       RESOLVES those cases: run the queue's benchmark first, or
//                                       on a copy.
import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import zlib from 'node:zlib';
import type { CaseJob } from '@veritas/shared/domain';
import { hashPassword } from '../src/auth/password-hashing';
import { nowIso } from '../src/db/schema';
import { loadVolumeCases } from '../seed/volume-cases';
import { loadVolumeData } from '../seed/volume-data';
import { WebClient } from '../sim/web-client';
import { forEachEngine, median, startServerProcess, storedRecords, withDatabase, type EngineOptions } from './harness';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 7));
const JOBS = process.argv.includes('--jobs');
const JOB_CASES = Number(process.env.BENCH_JOB_CASES ?? 100_000);
const GOAL_PAGE_MS = 200;
const ADMIN = { username: 'bench_admin', password: crypto.randomBytes(12).toString('base64url') };
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** The value at `fraction` of the sorted values (nearest rank). */
const percentile = (values: number[], fraction: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(fraction * values.length) - 1)]!;

interface Answer {
  ms: number;
  body: Record<string, unknown>;
}

/** One GET, timed to the last byte of the answer (gzip asked for, as a browser does). */
function get(url: string, cookie: string): Promise<Answer> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie, 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const raw = Buffer.concat(chunks);
          const text =
            response.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw).toString() : raw.toString();
          if (response.statusCode !== 200) return reject(new Error(`${url}: status ${response.statusCode} ${text}`));
          resolve({ ms, body: JSON.parse(text) as Record<string, unknown> });
        });
      })
      .on('error', reject);
  });
}

/** The benchmark's admin, added or its password reset. */
async function prepareAdmin(options: EngineOptions): Promise<void> {
  await withDatabase(options, async (db) => {
    await db.kysely
      .insertInto('users')
      .values({
        username: ADMIN.username,
        email: 'bench@example.com',
        password_hash: await hashPassword(ADMIN.password),
        role: 'admin',
        is_active: 1,
        group_id: null,
        created_at: nowIso(),
      })
      .onConflict((oc) =>
        oc.column('username').doUpdateSet((eb) => ({
          password_hash: eb.ref('excluded.password_hash'),
          role: eb.ref('excluded.role'),
          is_active: eb.ref('excluded.is_active'),
        })),
      )
      .execute();
  });
}

/** What the filters are made of: a hub's queue and a week of opening days, read from the cases. */
async function casesFacts(options: EngineOptions) {
  return withDatabase(options, async (db) => {
    const count = async (state?: string) =>
      Number(
        (
          await db.kysely
            .selectFrom('cases')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .$if(state === 'active', (q) => q.where('state', 'in', ['open', 'in_review']))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const span = await db.kysely
      .selectFrom('cases')
      .select((eb) => [eb.fn.min('opened_at').as('first'), eb.fn.max('opened_at').as('last')])
      .executeTakeFirstOrThrow();
    const queues = (await db.kysely.selectFrom('groups').select('code').where('organization', '=', 'hub').execute())
      .map((g) => g.code.toUpperCase())
      .sort();
    return {
      records: await storedRecords(db),
      cases: await count(),
      active: await count('active'),
      first: span.first as string | null,
      last: span.last as string | null,
      queue: queues.includes('HUB17') ? 'HUB17' : (queues[Math.floor(queues.length / 2)] ?? 'BLR01'),
    };
  });
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

async function signIn(base: string): Promise<{ client: WebClient; cookie: string }> {
  const client = new WebClient(base);
  if ((await client.login(ADMIN.username, ADMIN.password)).status !== 200) throw new Error('login failed');
  return { client, cookie: client.cookieHeader() };
}

async function queueBench(options: EngineOptions, base: string, facts: Awaited<ReturnType<typeof casesFacts>>) {
  const { cookie } = await signIn(base);
  const url = (call: string, params: Record<string, string>) =>
    `${base}/veritas/api/cases/${call}?${new URLSearchParams(params)}`;
  // The week three weeks before the newest case: the middle of the volume's span.
  const lastMs = Date.parse(facts.last ?? new Date().toISOString());
  const week = { from: day(lastMs - 27 * DAY_MS), to: day(lastMs - 21 * DAY_MS) };
  const filters: [string, Record<string, string>][] = [
    ['default (active)', {}],
    ['reason=E005', { reason: 'E005' }],
    [`queue=${facts.queue}`, { queue: facts.queue }],
    ['assignee=none', { assignee: 'none' }],
    ['overdue=1', { overdue: '1' }],
    [`from/to a week (${week.from}..${week.to})`, week],
    ['state=resolved', { state: 'resolved' }],
    [`reason=E005, queue=${facts.queue}, assignee=none`, { reason: 'E005', queue: facts.queue, assignee: 'none' }],
    [`state=resolved, a week, queue=${facts.queue}`, { state: 'resolved', ...week, queue: facts.queue }],
    ['overdue=1, a week, reason=E009', { overdue: '1', ...week, reason: 'E009' }],
  ];
  console.log(
    `   ${'filter'.padEnd(48)} ${'page median'.padStart(11)} ${'p95'.padStart(8)} ${'count median'.padStart(13)} ${'p95'.padStart(8)}  rows  count`,
  );
  const missed: string[] = [];
  for (const [name, params] of filters) {
    const page = () => get(url('', { ...params, limit: '50' }), cookie);
    const count = () => get(url('count/', params), cookie);
    await page();
    await count();
    const pages: number[] = [];
    const counts: number[] = [];
    let rows = 0;
    let total = '';
    for (let run = 0; run < RUNS; run++) {
      const p = await page();
      pages.push(p.ms);
      rows = (p.body.cases as unknown[]).length;
      const c = await count();
      counts.push(c.ms);
      total = `${fmt(c.body.total as number)}${c.body.capped ? '+' : ''}`;
    }
    const pageMedian = median(pages);
    if (pageMedian > GOAL_PAGE_MS) missed.push(name);
    console.log(
      `   ${name.padEnd(48)} ${pageMedian.toFixed(1).padStart(8)} ms ${percentile(pages, 0.95).toFixed(1).padStart(8)} ${median(counts).toFixed(1).padStart(10)} ms ${percentile(counts, 0.95).toFixed(1).padStart(8)}  ${String(rows).padStart(4)}  ${total}`,
    );
  }
  console.log(
    `   first page ≤ ${GOAL_PAGE_MS} ms (the goal on PostgreSQL at 10M records): ${missed.length === 0 ? 'OK for every filter' : `MISSED by ${missed.join('; ')}`} (load average ${os.loadavg()[0]!.toFixed(2)})`,
  );
}

/**
 * The job's filters: a state (active, open or in_review) and a range of opening days whose cases
 * come nearest JOB_CASES without passing it.
 */
async function jobFilters(base: string, cookie: string, facts: Awaited<ReturnType<typeof casesFacts>>) {
  const first = Date.parse(`${(facts.first ?? nowIso()).slice(0, 10)}T00:00:00Z`);
  const last = Date.parse(`${(facts.last ?? nowIso()).slice(0, 10)}T00:00:00Z`);
  const days: string[] = [];
  for (let ms = first; ms <= last; ms += DAY_MS) days.push(day(ms));
  let best = { total: 0, filters: {} as Record<string, string> };
  for (const state of ['active', 'open', 'in_review']) {
    const perDay: number[] = [];
    for (const d of days) {
      const answer = await get(
        `${base}/veritas/api/cases/count/?${new URLSearchParams({ state, from: d, to: d })}`,
        cookie,
      );
      perDay.push(answer.body.capped ? Infinity : (answer.body.total as number));
    }
    for (let start = 0; start < days.length; start++) {
      let sum = 0;
      for (let end = start; end < days.length && sum + perDay[end]! <= JOB_CASES; end++) {
        sum += perDay[end]!;
        if (sum > best.total) best = { total: sum, filters: { state, from: days[start]!, to: days[end]! } };
      }
    }
  }
  return best;
}

async function jobBench(base: string, facts: Awaited<ReturnType<typeof casesFacts>>) {
  const { client, cookie } = await signIn(base);
  const chosen = await jobFilters(base, cookie, facts);
  if (chosen.total === 0) throw new Error('no active cases to resolve');
  console.log(`   resolving ${fmt(chosen.total)} cases: filters ${JSON.stringify(chosen.filters)}`);
  const started = performance.now();
  const created = await client.post<CaseJob>('api/cases/jobs/', {
    action: 'resolve',
    filters: chosen.filters,
    disposition: 'accepted',
    note: 'Bulk benchmark (bench:case-jobs)',
  });
  if (created.status !== 202) throw new Error(`job refused: ${created.status} ${JSON.stringify(created.body)}`);
  const createdMs = performance.now() - started;
  console.log(
    `   job ${created.body.id} created in ${(createdMs / 1000).toFixed(2)} s (its ${fmt(created.body.total)} items listed)`,
  );
  let job = created.body;
  let reported = performance.now();
  // The slowest answer to a poll: how long the job held the server's other requests back.
  let slowestPoll = 0;
  while (job.state !== 'done') {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const asked = performance.now();
    job = (await client.get<CaseJob>(`api/cases/jobs/${job.id}/`)).body;
    slowestPoll = Math.max(slowestPoll, performance.now() - asked);
    if (performance.now() - reported >= 10_000) {
      reported = performance.now();
      const seconds = (reported - started) / 1000;
      console.log(
        `   ${seconds.toFixed(0)} s: ${fmt(job.done)} done, ${fmt(job.skipped)} skipped of ${fmt(job.total)} (${fmt((job.done + job.skipped) / seconds)} cases/s)`,
      );
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `   done: ${fmt(job.done)} resolved, ${fmt(job.skipped)} skipped of ${fmt(job.total)} in ${seconds.toFixed(1)} s: ` +
      `${fmt((job.done + job.skipped) / seconds)} cases/s from the POST to the last batch (load average ${os.loadavg()[0]!.toFixed(2)})`,
  );
  console.log(`   slowest answer to a progress poll meanwhile: ${(slowestPoll / 1000).toFixed(2)} s`);
}

async function bench(label: string, options: EngineOptions) {
  if (!options.preloaded) {
    const records = Number(process.env.BENCH_RECORDS ?? 100_000);
    console.log(`\n== ${label}: loading ${fmt(records)} records with their cases`);
    await withDatabase(options, async (db) => {
      await loadVolumeData(db, { records, hubs: 40 });
      await loadVolumeCases(db);
    });
  }
  await prepareAdmin(options);
  const facts = await casesFacts(options);
  console.log(
    `\n== ${label}: ${fmt(facts.records)} records, ${fmt(facts.cases)} cases (${fmt(facts.active)} active)` +
      `${JOBS ? ', a bulk resolve job' : `, the queue's first page and count, ${RUNS} runs each`}`,
  );
  const server = await startServerProcess(options);
  try {
    if (JOBS) await jobBench(server.base, facts);
    else await queueBench(options, server.base, facts);
  } finally {
    await server.stop();
  }
}

forEachEngine(bench, { preloadable: true }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
