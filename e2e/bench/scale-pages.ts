// Benchmark: the pick list and the dashboard served by the server's own calls (docs/architecture.md#server-features)
// over a database already holding millions of records (load it first with `pnpm --filter api load:volume`).
// Prints, medians of RUNS: navigation → first rows; a filter keystroke → rows updated (round trip
// included); scrolling to row 10,000; Device Details open; navigation → all dashboard charts drawn;
// and the page's JS heap on both pages.
// Run (after pnpm build): BENCH_DATABASE_URL=postgres://… pnpm --filter e2e bench:scale
//                     or: BENCH_DATA_DIR=/path/of/sqlite/data pnpm --filter e2e bench:scale
import type { Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, launchBrowser, signIn } from '../support/browser';
import { startServer, stopServer } from '../support/server';
import { chartsDrawnAt, median } from './harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROW_HEIGHT = 56;

function target(): Record<string, string> {
  if (process.env.BENCH_DATABASE_URL) return { DATABASE_URL: process.env.BENCH_DATABASE_URL };
  if (process.env.BENCH_DATA_DIR) return { VERITAS_DATA_DIR: process.env.BENCH_DATA_DIR };
  throw new Error(
    'Set BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR (SQLite) to a database loaded with pnpm --filter api load:volume',
  );
}

/** The page's JS heap in MB, after a garbage collection (chromium's Performance domain). */
async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return metrics.find((m) => m.name === 'JSHeapUsedSize')!.value / 1024 / 1024;
}

async function pickList(page: Page, figures: Record<string, number[]>): Promise<void> {
  await page.goto('/Dashboard');
  await page.locator('[data-state="ready"]').waitFor({ timeout: 60_000 });
  const startedAt = Date.now();
  await page.goto('/ListDevices');
  await page.locator('[data-testid="device-row"]').first().waitFor({ timeout: 60_000 });
  figures['first rows']!.push(Date.now() - startedAt);
  await page.getByTestId('record-count').waitFor({ timeout: 60_000 });

  // A keystroke: from the key going down to the first row showing a tracking ID that contains the text.
  const before = await page.locator('[data-testid="device-row"] [data-column="tracking-id"]').first().innerText();
  const needle = before.trim().slice(-6, -1);
  const filter = page.getByPlaceholder('Filter by tracking id...');
  await filter.fill(needle.slice(0, -1));
  await page.waitForFunction(() => !document.querySelector('[role="table"][aria-busy="true"]'));
  const keystroke = page.evaluate(
    (text) =>
      new Promise<number>((resolve) => {
        const input = document.querySelector<HTMLInputElement>('input[placeholder="Filter by tracking id..."]')!;
        let start = 0;
        input.addEventListener('keydown', () => (start = performance.now()), { once: true, capture: true });
        const done = () => {
          const first = document.querySelector('[data-testid="device-row"] [data-column="tracking-id"]');
          const busy = document.querySelector('[role="table"][aria-busy="true"]');
          if (start && !busy && first?.textContent?.toLowerCase().includes(text.toLowerCase()))
            resolve(performance.now() - start);
          else requestAnimationFrame(done);
        };
        requestAnimationFrame(done);
      }),
    needle,
  );
  await filter.press(needle.slice(-1));
  figures['keystroke']!.push(await keystroke);
  await page.getByRole('button', { name: 'Clear tracking id filter' }).click();
  await page.waitForFunction(() => !document.querySelector('[role="table"][aria-busy="true"]'));

  // Row 10,000: scroll there and wait until it is a real row, not a placeholder.
  figures['row 10,000']!.push(
    await (async () => {
      const started = await page.evaluate(() => performance.now());
      await page
        .getByTestId('device-table-scroll')
        .evaluate((element, top) => (element.scrollTop = top), 9_999 * ROW_HEIGHT);
      await page.waitForFunction(
        () => document.querySelector('[data-testid="device-row"][aria-rowindex="10001"]'),
        undefined,
        {
          timeout: 60_000,
          polling: 'raf',
        },
      );
      return (await page.evaluate(() => performance.now())) - started;
    })(),
  );

  // Device Details: the click to the dialog shown.
  const details = page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const start = performance.now();
        const check = () =>
          document.querySelector('dialog[open]') ? resolve(performance.now() - start) : requestAnimationFrame(check);
        document.querySelector<HTMLButtonElement>('[data-testid="device-row"] button')!.click();
        requestAnimationFrame(check);
      }),
  );
  figures['details']!.push(await details);
  await page.keyboard.press('Escape');
  figures['heap: pick list']!.push(await heapMb(page));
}

async function dashboard(page: Page, figures: Record<string, number[]>): Promise<void> {
  await page.goto('/ListDevices');
  await page.locator('[data-testid="device-row"]').first().waitFor({ timeout: 60_000 });
  await page.goto('/Dashboard?hub=all&timeframe=last30');
  figures['charts drawn']!.push(await chartsDrawnAt(page));
  figures['heap: dashboard']!.push(await heapMb(page));
}

async function main(): Promise<void> {
  const figures: Record<string, number[]> = {
    'first rows': [],
    keystroke: [],
    'row 10,000': [],
    details: [],
    'charts drawn': [],
    'heap: pick list': [],
    'heap: dashboard': [],
  };
  const server = await startServer({ ...target(), VERITAS_DEMO: '0' });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
    // tsx names the functions it compiles (__name); the callbacks sent to the page need it there too.
    await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    const page = await context.newPage();
    await signIn(page, DEMO.admin, DEMO_PASSWORD);
    const total = await (await page.request.get('/veritas/api/devices/count/')).json();
    console.log(
      `${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}: ${Number(total.total).toLocaleString('en-US')} records`,
    );
    for (let run = 0; run < RUNS; run++) {
      await pickList(page, figures);
      await dashboard(page, figures);
    }
  } finally {
    await browser.close();
    await stopServer(server);
  }
  const goals: Record<string, string> = {
    'first rows': 'navigation → first rows, goal ≤ 1000 ms',
    keystroke: 'filter keystroke → rows updated, goal ≤ 200 ms',
    'row 10,000': 'scroll to row 10,000, goal ≤ 1000 ms',
    details: 'Device Details open, goal ≤ 300 ms',
    'charts drawn': 'dashboard navigation → all charts drawn, goal ≤ 1500 ms',
    'heap: pick list': 'JS heap on the pick list (MB), goal ≤ 150',
    'heap: dashboard': 'JS heap on the dashboard (MB), goal ≤ 150',
  };
  for (const [name, values] of Object.entries(figures)) {
    console.log(
      `${goals[name]}: median ${median(values).toFixed(0)} (runs ${values.map((v) => v.toFixed(0)).join(', ')})`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
