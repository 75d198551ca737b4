// Benchmark: the slowest `get_role` while ten consoles load the Dashboard at once (each a page load
// of its own: the page document with its composition, the shell, the dashboard remote's files from
// the registry, the figures), over a database already holding millions of records; and each page
// load → its tiles drawn. `get_role` is asked every 20 ms meanwhile, as one more signed-in user.
// Rounds of ten, the slowest answer and the median page load of each round.
// Run (after pnpm build): BENCH_DATABASE_URL=postgres://… pnpm --filter e2e bench:dashboards
//                     or: BENCH_DATA_DIR=/path/of/sqlite/data pnpm --filter e2e bench:dashboards
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { signedInApi } from '../support/api-session';
import { DEMO, launchBrowser, signIn } from '../support/browser';
import { startServer, stopServer } from '../support/server';
import { median } from './harness';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONSOLES = 10;
const TILES_DRAWN = '[data-state="ready"]';

function target(): Record<string, string> {
  if (process.env.BENCH_DATABASE_URL) return { DATABASE_URL: process.env.BENCH_DATABASE_URL };
  if (process.env.BENCH_DATA_DIR) return { VERITAS_DATA_DIR: process.env.BENCH_DATA_DIR };
  throw new Error(
    'Set BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR (SQLite) to a database loaded with load:volume',
  );
}

async function signedInConsole(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await signIn(page, DEMO.admin);
  return page;
}

/** A page load of the Dashboard → its tiles drawn, in ms. */
async function dashboardLoad(page: Page): Promise<number> {
  await page.goto('about:blank');
  const started = Date.now();
  await page.goto('/Dashboard', { waitUntil: 'commit' });
  await page.locator(TILES_DRAWN).first().waitFor({ timeout: 60_000 });
  return Date.now() - started;
}

async function main(): Promise<void> {
  const server = await startServer({ ...target(), VERITAS_DEMO: '0' });
  const browser = await launchBrowser();
  const asker = await signedInApi(server.url, DEMO.centralOps);
  try {
    const consoles = await Promise.all(Array.from({ length: CONSOLES }, () => signedInConsole(browser, server.url)));
    const slowest: number[] = [];
    const loads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let loading = true;
      const answers: number[] = [];
      const asking = (async () => {
        while (loading) {
          const started = performance.now();
          await asker.get('/veritas/user/get_role/');
          answers.push(performance.now() - started);
          await sleep(20);
        }
      })();
      const times = await Promise.all(consoles.map(dashboardLoad));
      loading = false;
      await asking;
      slowest.push(Math.max(...answers));
      loads.push(median(times));
    }
    const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
    console.log(
      `get_role while ${CONSOLES} Dashboards load: slowest ${list(slowest)} ms (median ${median(slowest).toFixed(0)} ms; goal ≤ 100 ms)`,
    );
    console.log(`Dashboard page load → tiles drawn, ${CONSOLES} at once: median ${list(loads)} ms`);
  } finally {
    await asker.api.dispose();
    await browser.close();
    await stopServer(server);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
