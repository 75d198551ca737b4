// Page benchmarks' harness: a throwaway data folder with the demo users and N device records
// (written through the built API's own volume-data code), served as `pnpm start` serves it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
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

/** What watchFor gives each page: when the awaited element showed, on the page's clock. */
interface WatchingWindow {
  shown: Promise<number>;
}

/**
 * Makes each page of `context`, from its first script on, note when an element matching
 * `selector` is first in the DOM (shownOnPage answers it). Awaiting it so, instead of by a
 * Playwright locator, keeps the locator's script (about 330 KB, run in the page while it loads) and
 * its polling off the main thread the page load needs.
 */
export async function watchFor(context: BrowserContext, selector: string): Promise<void> {
  // tsx names the functions it compiles (__name); the callbacks sent to the page need it there too.
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await context.addInitScript((awaited: string) => {
    const page = window as unknown as WatchingWindow;
    page.shown = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (!document.querySelector(awaited)) return;
        observer.disconnect();
        resolve(performance.now());
      });
      observer.observe(document, { childList: true, subtree: true });
    });
  }, selector);
}

/** When the element watchFor awaits showed in `page`'s document, in ms of the page's clock; throws after 60 s. */
export function shownOnPage(page: Page): Promise<number> {
  return page.evaluate(() =>
    Promise.race([
      (window as unknown as WatchingWindow).shown,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('not shown within 60 s')), 60_000)),
    ]),
  );
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
