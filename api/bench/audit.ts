// Benchmark of the audit trail's reading calls over bulk-loaded volume (audit-volume.ts): 10M
// entries on each engine by default (--entries N or BENCH_AUDIT_ENTRIES; BENCH_RUNS calls per
// figure, default 20). Prints the load's rows per second, then for each filter of the Audit Log
// screen, and for combinations whose filters seldom or never hold together, the median and p95
// time of GET audit/ over HTTP (a page of 50, server in its own process, signed in as an admin),
// the rate of a filtered CSV export (rows/s) and the time of audit/verify/ over the whole chain
// (entries/s). A filter whose median is over 200 ms has its query's plan
// printed (EXPLAIN ANALYZE on PostgreSQL, EXPLAIN QUERY PLAN on SQLite; every filter's with
// BENCH_EXPLAIN=1). Prints, asserts nothing.
// Goal: every page ≤ 200 ms at 10M entries on both engines.
//
// BENCH_DATA_DIR (SQLite) or BENCH_DATABASE_URL (PostgreSQL): a database of its own is read
// instead, e.g. one filled beforehand with `pnpm --filter api load:audit -- --entries 10000000`;
// when its trail is empty, the entries are loaded into it first, and kept for the next run.
import http from 'node:http';
import { parseArgs } from 'node:util';
import type { AuditPage, AuditVerification } from '@veritas/shared/domain';
import { firstSeqFrom } from '../src/audit/search';
import type { Db } from '../src/db/schema';
import { DEMO_PASSWORD } from '../seed';
import { seedDemoOrganization } from '../seed/demo';
import { WebClient } from '../sim/web-client';
import { percentile } from '../sim/simulation';
import { auditHead, auditUserName, loadAuditVolume } from './audit-volume';
import { forEachEngine, median, startServerProcess, withDatabase, type EngineOptions } from './harness';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: { entries: { type: 'string' } },
});
const ENTRIES = Number((values.entries ?? process.env.BENCH_AUDIT_ENTRIES ?? '10000000').replace(/[_,]/g, ''));
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const GOAL_MS = 200;
/** audit/'s default page. */
const PAGE = 50;
const DAY_MS = 24 * 60 * 60 * 1000;
const USERS = 3000;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

type Filter = Record<string, string>;

/** A GET timed to the last byte; the body as text. */
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

/** A GET timed to the last byte, counting the lines of the body as it streams (an export of any size). */
function countLines(url: string, cookie: string): Promise<{ ms: number; lines: number; bytes: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie } }, (response) => {
        let lines = 0;
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
          else resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, lines, bytes });
        });
      })
      .on('error', reject);
  });
}

async function signIn(base: string, username: string): Promise<string> {
  const client = new WebClient(base);
  const answer = await client.login(username, DEMO_PASSWORD);
  if (answer.status !== 200) throw new Error(`sign-in of ${username}: ${answer.status}`);
  return client.cookieHeader();
}

/**
 * The page's query as src/audit/search.ts builds it (the time range first turned into a range of
 * seq), for its plan.
 */
async function pageQuery(db: Db, filter: Filter) {
  let query = db.kysely.selectFrom('audit_log').selectAll();
  if (filter.since)
    query = query.where(
      'seq',
      '>=',
      (await firstSeqFrom(db.kysely, Date.parse(filter.since))) ?? Number.MAX_SAFE_INTEGER,
    );
  if (filter.until) {
    const high = await firstSeqFrom(db.kysely, Date.parse(filter.until));
    if (high !== null) query = query.where('seq', '<', high);
  }
  if (filter.actor) query = query.where('actor_name', '=', filter.actor);
  if (filter.action) query = query.where('action', '=', filter.action as never);
  if (filter.target_kind) query = query.where('target_kind', '=', filter.target_kind as never);
  if (filter.target) query = query.where('target_label', '=', filter.target);
  if (filter.outcome) query = query.where('outcome', '=', filter.outcome as never);
  if (filter.before) query = query.where('seq', '<', Number(filter.before));
  return query
    .orderBy('seq', 'desc')
    .limit(PAGE + 1)
    .compile();
}

async function printPlan(db: Db, filter: Filter) {
  const query = await pageQuery(db, filter);
  console.log(`      ${query.sql}`);
  console.log(`      parameters: ${JSON.stringify(query.parameters)}`);
  if (db.engine === 'postgres') {
    const { rows } = await db.pg!.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${query.sql}`,
      query.parameters as unknown[],
    );
    for (const row of rows) console.log(`      ${row['QUERY PLAN']}`);
  } else {
    const plan = db.sqlite!.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[]));
    for (const step of plan as { detail: string }[]) console.log(`      ${step.detail}`);
    const started = process.hrtime.bigint();
    db.sqlite!.prepare(query.sql).all(...(query.parameters as unknown[]));
    console.log(`      (${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms in-process)`);
  }
}

/** A day's start (UTC) `days` before now, as ISO text. */
const dayStart = (now: number, days: number) => new Date(Math.floor((now - days * DAY_MS) / DAY_MS) * DAY_MS);

async function bench(label: string, options: EngineOptions) {
  const head = await withDatabase(options, async (db) => {
    await seedDemoOrganization(db);
    let stored = await auditHead(db);
    if (stored > 0 && options.preloaded) {
      console.log(`\n== ${label}: ${fmt(stored)} audit entries, loaded beforehand`);
      return stored;
    }
    console.log(`\n== ${label}: ${fmt(ENTRIES)} audit entries${stored > 0 ? ` after ${fmt(stored)}` : ''}`);
    const started = Date.now();
    const result = await loadAuditVolume(db, { entries: ENTRIES, users: USERS });
    const total = Date.now() - started;
    console.log(
      `   loaded in ${seconds(total)} (${fmt(ENTRIES / (total / 1000))} rows/s overall; insert ${seconds(result.insertMs)}, ` +
        `${fmt(ENTRIES / Math.max(result.insertMs / 1000, 0.001))} rows/s; indexes and statistics ${seconds(result.indexMs)})`,
    );
    stored = result.last;
    return stored;
  });

  const server = await startServerProcess(options);
  const slow: { name: string; filter: Filter }[] = [];
  try {
    const admin = await signIn(server.base, 'admin_demo');
    const url = (call: string, params: Filter) => `${server.base}/veritas/${call}?${new URLSearchParams(params)}`;

    const now = Date.now();
    const yearAgo = dayStart(now, 365);
    const halfYearAgo = dayStart(now, 182);
    const filters: [string, Filter][] = [
      ['no filter', {}],
      ['action=user.deactivated (rare)', { action: 'user.deactivated' }],
      [`actor=${auditUserName(1)} (frequent)`, { actor: auditUserName(1) }],
      [`actor=${auditUserName(USERS)} (rare)`, { actor: auditUserName(USERS) }],
      ['outcome=refused', { outcome: 'refused' }],
      ['target_kind=brand', { target_kind: 'brand' }],
      ['target=Samsung', { target: 'Samsung' }],
      [
        `one day a year ago (${yearAgo.toISOString().slice(0, 10)})`,
        { since: yearAgo.toISOString(), until: new Date(yearAgo.getTime() + DAY_MS).toISOString() },
      ],
      ['action=session.sign-in, outcome=failure', { action: 'session.sign-in', outcome: 'failure' }],
      ['action=session.sign-in, outcome=refused', { action: 'session.sign-in', outcome: 'refused' }],
      [`actor=${auditUserName(1)}, action=user.deactivated`, { actor: auditUserName(1), action: 'user.deactivated' }],
      [
        `30 days from half a year ago, actor=${auditUserName(42)}`,
        {
          since: halfYearAgo.toISOString(),
          until: new Date(halfYearAgo.getTime() + 30 * DAY_MS).toISOString(),
          actor: auditUserName(42),
        },
      ],
      [
        `30 days from half a year ago, actor=${auditUserName(USERS)}`,
        {
          since: halfYearAgo.toISOString(),
          until: new Date(halfYearAgo.getTime() + 30 * DAY_MS).toISOString(),
          actor: auditUserName(USERS),
        },
      ],
      // Two filters whose entries are many but rarely both, or never: the page walks one filter's index
      // and checks the other on each entry it finds.
      [`actor=${auditUserName(1)}, outcome=refused`, { actor: auditUserName(1), outcome: 'refused' }],
      ['action=upload.completed, outcome=failure (none)', { action: 'upload.completed', outcome: 'failure' }],
      ['target_kind=brand, outcome=failure (none)', { target_kind: 'brand', outcome: 'failure' }],
      [
        `actor=${auditUserName(1)}, action=upload.completed, outcome=refused (none)`,
        { actor: auditUserName(1), action: 'upload.completed', outcome: 'refused' },
      ],
      [`deep page (before=${fmt(Math.ceil(head / 2))})`, { before: String(Math.ceil(head / 2)) }],
      [
        `deep page (before=${fmt(Math.ceil(head / 2))}), outcome=refused`,
        { before: String(Math.ceil(head / 2)), outcome: 'refused' },
      ],
    ];

    console.log(`   GET audit/ (page of ${PAGE}), ${RUNS} calls each after one to warm up:`);
    for (const [name, filter] of filters) {
      // The default page (audit/ refuses `limit` in a query string: its schema wants an integer, and nothing is coerced).
      const call = () => get(url('audit/', filter), admin);
      const first = await call();
      const runs: number[] = [];
      for (let run = 0; run < RUNS; run++) runs.push((await call()).ms);
      const sorted = [...runs].sort((a, b) => a - b);
      const page = JSON.parse(first.body) as AuditPage;
      const p50 = median(runs);
      if (p50 > GOAL_MS || process.env.BENCH_EXPLAIN === '1') slow.push({ name, filter });
      console.log(
        `   ${name.padEnd(66)} median ${p50.toFixed(1).padStart(7)} ms  p95 ${percentile(sorted, 95).toFixed(1).padStart(7)} ms  ` +
          `${String(page.entries.length).padStart(2)} ${page.entries.length === 1 ? 'entry  ' : 'entries'}${page.next ? '' : ' (last page)'}  ${p50 <= GOAL_MS ? 'OK' : 'MISSED'}`,
      );
    }

    // While the pages are in the cache, as they were answered (verify reads the whole table).
    if (slow.length > 0) {
      console.log(
        `   The page's query and its plan${process.env.BENCH_EXPLAIN === '1' ? '' : ` (over ${GOAL_MS} ms)`}:`,
      );
      await withDatabase(options, async (db) => {
        for (const { name, filter } of slow) {
          console.log(`    ${name}`);
          await printPlan(db, filter);
        }
      });
    }

    const exportFilter: Filter = { outcome: 'failure' };
    const exported = await countLines(url('audit/export/', exportFilter), admin);
    const rows = exported.lines - 1;
    console.log(
      `   CSV export (outcome=failure): ${fmt(rows)} rows, ${(exported.bytes / 1024 / 1024).toFixed(1)} MB in ${seconds(exported.ms)}: ${fmt(rows / (exported.ms / 1000))} rows/s`,
    );

    const superAdmin = await signIn(server.base, 'superadmin_demo');
    const verified = await get(url('audit/verify/', {}), superAdmin);
    const verification = JSON.parse(verified.body) as AuditVerification;
    console.log(
      `   verify: ${verification.ok ? 'chain holds' : `BROKEN at ${verification.broken?.seq}: ${verification.broken?.reason}`}, ` +
        `${fmt(verification.checked)} entries in ${seconds(verified.ms)}: ${fmt(verification.checked / (verified.ms / 1000))} entries/s`,
    );
  } finally {
    await server.stop();
  }
}

if (!Number.isSafeInteger(ENTRIES) || ENTRIES < 1) throw new Error(`--entries must be a whole number ≥ 1`);

forEachEngine(bench, { preloadable: true }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
