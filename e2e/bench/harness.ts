// Page benchmarks' harness: a throwaway data folder with the demo users and N device records
// (written through the built API's own volume-data code), served as `pnpm start` serves it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, launchBrowser, signIn } from '../support/browser';
import { repoRoot, startServer, stopServer } from '../support/server';

interface ServerModule {
  openDatabase(o: { dataDir: string }): { kysely: { destroy(): Promise<void> } };
  migrateToLatest(db: unknown): Promise<void>;
}

interface SeedModule {
  loadVolumeData(db: unknown, o: { records: number }): Promise<void>;
}

async function seededDataDir(count: number): Promise<string> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'veritas-bench-'));
  console.log(`seeding ${count.toLocaleString('en-US')} records …`);
  // The built API and its seed code, as the served console runs them (paths, not package imports).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const server = require(path.join(repoRoot, 'api/dist/server.js')) as ServerModule;
  const seed = require(path.join(repoRoot, 'api/dist/seed.js')) as SeedModule;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const db = server.openDatabase({ dataDir });
  await server.migrateToLatest(db);
  await seed.loadVolumeData(db, { records: count });
  await db.kysely.destroy();
  return dataDir;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Serves `records` device records and hands `measure` a page signed in as admin; cleans up after. */
export async function withSignedInPage<T>(records: number, measure: (page: Page) => Promise<T>): Promise<T> {
  const dataDir = await seededDataDir(records);
  const server = await startServer({ VERITAS_DATA_DIR: dataDir, VERITAS_DEMO: '0' });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await signIn(page, DEMO.admin, DEMO_PASSWORD);
    return await measure(page);
  } finally {
    await browser.close();
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** When all three dashboard charts were drawn, on the page's own clock (navigation start is 0). */
export async function chartsDrawnAt(page: Page): Promise<number> {
  const drawnAt = await page.waitForFunction(
    () => {
      const ready = document.querySelector('[data-state="ready"]');
      return ready && ready.querySelectorAll('canvas').length >= 3 ? performance.now() : null;
    },
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
  return (await drawnAt.jsonValue()) as number;
}
