// Benchmark: the devices page (ListDevices) over 100k records in chromium, served as `pnpm start`
// serves it. Prints: navigation → first rows, one filter keystroke → rows updated, DOM row count.
// Goals: ≤ 2 s, ≤ 100 ms, bounded DOM. Run: pnpm --filter e2e bench:devices (after pnpm build).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO, DEMO_PASSWORD, launchBrowser, signIn } from '../support/browser';
import { repoRoot, startServer, stopServer } from '../support/server';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const RUNS = 3;

interface ApiModule {
  openDatabase(o: { dataDir: string }): { kysely: { destroy(): Promise<void> } };
  migrateToLatest(db: unknown): Promise<void>;
  loadDemoData(db: unknown, o: { records: number }): Promise<void>;
}

async function seed(dataDir: string): Promise<void> {
  // The built API, as the server runs it.
  const api = require(path.join(repoRoot, 'api/dist/index.js')) as ApiModule;
  const db = api.openDatabase({ dataDir });
  await api.migrateToLatest(db);
  await api.loadDemoData(db, { records: RECORDS });
  await db.kysely.destroy();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'veritas-bench-'));
  console.log(`seeding ${RECORDS.toLocaleString('en-US')} records …`);
  await seed(dataDir);
  const server = await startServer({ VERITAS_DATA_DIR: dataDir, VERITAS_DEMO: '0' });
  const browser = await launchBrowser();
  const firstRows: number[] = [];
  const keystrokes: number[] = [];
  let domRows = 0;
  let shown = '';
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await signIn(page, DEMO.admin, DEMO_PASSWORD);
    for (let run = 0; run < RUNS; run++) {
      await page.goto('/Dashboard');
      const started = Date.now();
      await page.goto('/ListDevices');
      await page.locator('[data-testid="device-row"]').first().waitFor({ timeout: 60_000 });
      firstRows.push(Date.now() - started);

      // Time inside the page, from the key going down to the count changing and the next frame.
      const filter = page.getByPlaceholder('Filter by tracking id...');
      const measured = page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const input = document.querySelector<HTMLInputElement>('input[placeholder="Filter by tracking id..."]')!;
            const count = document.querySelector('[data-testid="record-count"]')!;
            let start = 0;
            input.addEventListener('keydown', () => (start = performance.now()), { once: true, capture: true });
            new MutationObserver((_, observer) => {
              observer.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - start));
            }).observe(count, { attributes: true, childList: true, subtree: true, characterData: true });
          }),
      );
      await filter.press('7');
      keystrokes.push(await measured);
      domRows = await page.locator('[data-testid="device-row"]').count();
      shown = (await page.getByTestId('record-count').textContent()) ?? '';
    }
  } finally {
    await browser.close();
    await stopServer(server);
  }
  console.log(`devices page, ${RECORDS.toLocaleString('en-US')} records, median of ${RUNS} (runs: ${firstRows.join(', ')} ms / ${keystrokes.map((k) => k.toFixed(0)).join(', ')} ms)`);
  console.log(`devices: navigation → first rows ${median(firstRows)} ms (goal ≤ 2000 ms)`);
  console.log(`devices: one filter keystroke → rows updated ${median(keystrokes).toFixed(0)} ms (goal ≤ 100 ms), now showing ${shown}`);
  console.log(`devices: ${domRows} rows in the DOM (virtualized; bounded)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
