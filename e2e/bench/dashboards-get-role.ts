// Benchmark: the slowest `get_role` while ten consoles load the Dashboard at once (each a page load
// of its own: the page document with its composition, the shell, the dashboard remote's files from
// the registry, the figures), over a database already holding millions of records; and each page
// load → its tiles drawn. `get_role` is asked every 20 ms meanwhile, as one more signed-in user, from
// a process of its own (get-role-asker.mjs).
// Rounds of ten, the slowest answer and the median page load of each round.
// BENCH_SERVER_CORE=<n> keeps the server on core n and this script with its browsers on the others
// (Linux's taskset), as when the browsers run on their users' machines: on two cores, ten browsers
// loading a page at once otherwise take most of the CPU the server answers with.
// Run (after pnpm build): BENCH_DATABASE_URL=postgres://… pnpm --filter e2e bench:dashboards
//                     or: BENCH_DATA_DIR=/path/of/sqlite/data pnpm --filter e2e bench:dashboards
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, launchBrowser, signIn } from '../support/browser';
import { startServer, stopServer } from '../support/server';
import { median, shownOnPage, watchFor } from './harness';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONSOLES = 10;
const TILES_DRAWN = '[data-state="ready"]';
const SERVER_CORE = process.env.BENCH_SERVER_CORE;

/** Sets the cores every thread of process `pid` (and each process it starts later) may run on. */
function pin(pid: number, cores: number[]): void {
  const pinned = spawnSync('taskset', ['-a', '-cp', cores.join(','), String(pid)], { encoding: 'utf8' });
  if (pinned.status !== 0) throw new Error(`taskset could not pin ${pid}: ${pinned.stderr || pinned.error?.message}`);
}

/** With BENCH_SERVER_CORE, the server on that core and this script with the browsers it starts on the others. */
function pinServer(serverPid: number): string {
  if (SERVER_CORE === undefined) return 'browsers and server sharing every core';
  const core = Number(SERVER_CORE);
  const others = Array.from({ length: os.availableParallelism() }, (_, index) => index).filter((c) => c !== core);
  if (!Number.isInteger(core) || others.length === os.availableParallelism() || others.length === 0) {
    throw new Error(`BENCH_SERVER_CORE names one of this machine's ${os.availableParallelism()} cores, leaving others`);
  }
  pin(serverPid, [core]);
  pin(process.pid, others);
  return `the server alone on core ${core}, the browsers on ${others.join(', ')}`;
}

function target(): Record<string, string> {
  if (process.env.BENCH_DATABASE_URL) return { DATABASE_URL: process.env.BENCH_DATABASE_URL };
  if (process.env.BENCH_DATA_DIR) return { VERITAS_DATA_DIR: process.env.BENCH_DATA_DIR };
  throw new Error(
    'Set BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR (SQLite) to a database loaded with load:volume',
  );
}

/** The asker (get-role-asker.mjs), signed in as `username` and ready to ask. */
async function startAsker(url: string, username: string): Promise<ChildProcess> {
  const asker = fork(path.join(__dirname, 'get-role-asker.mjs'), [url, username, DEMO_PASSWORD], { execArgv: [] });
  const first = await Promise.race([
    once(asker, 'message').then(() => 'ready'),
    once(asker, 'exit').then(() => 'exited'),
  ]);
  if (first === 'exited') throw new Error('the asker exited before signing in');
  return asker;
}

/** get_role's times, in ms, while `work` runs. */
async function askedDuring(asker: ChildProcess, work: Promise<unknown>): Promise<number[]> {
  asker.send('start');
  await work;
  asker.send('stop');
  const [message] = (await once(asker, 'message')) as [{ times: number[] }];
  return message.times;
}

async function signedInConsole(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1366, height: 900 } });
  await watchFor(context, TILES_DRAWN);
  const page = await context.newPage();
  await signIn(page, DEMO.admin);
  return page;
}

/** A page load of the Dashboard → its tiles drawn, in ms. */
async function dashboardLoad(page: Page): Promise<number> {
  await page.goto('about:blank');
  const started = Date.now();
  await page.goto('/Dashboard', { waitUntil: 'commit' });
  await shownOnPage(page);
  return Date.now() - started;
}

async function main(): Promise<void> {
  const server = await startServer({ ...target(), VERITAS_DEMO: '0' });
  const cores = pinServer(server.process.pid!);
  const browser = await launchBrowser();
  const asker = await startAsker(server.url, DEMO.centralOps);
  try {
    const consoles = await Promise.all(Array.from({ length: CONSOLES }, () => signedInConsole(browser, server.url)));
    const slowest: number[] = [];
    const loads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const loading = Promise.all(consoles.map(dashboardLoad));
      const answers = await askedDuring(asker, loading);
      const times = await loading;
      slowest.push(Math.max(...answers));
      loads.push(median(times));
    }
    const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
    console.log(
      `get_role while ${CONSOLES} Dashboards load (${cores}): slowest ${list(slowest)} ms (median ${median(slowest).toFixed(0)} ms; goal ≤ 100 ms)`,
    );
    console.log(`Dashboard page load → tiles drawn, ${CONSOLES} at once: median ${list(loads)} ms`);
  } finally {
    asker.kill();
    await browser.close();
    await stopServer(server);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
