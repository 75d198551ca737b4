// Benchmark: navigation → the pick list's first row (docs/architecture.md#first-rows), medians of
// RUNS over a database already holding millions of records, for the federated console and for the
// same pages built as one bundle (bench/one-bundle: the shell and the pick list compiled together,
// no federation), and the ratio of the two. Three navigations: a page load of /ListDevices from
// about:blank (a tab's first page of the console), a page load of it from the Deployments page in
// the same tab (a reload, or an address typed in a tab showing the console), and a navigation
// inside the console from the Deployments page after a moment left idle. The first page load is
// timed twice: by this script (from asking for the page to hearing from the page that its row is
// in, Playwright's round trips included) and on the page's clock (from the navigation's start to
// the row in the DOM). It is timed a third way, as a Playwright test would wait for the row (the
// navigation's load event, then a locator): that locator's script (about 330 KB, run in the page
// while it loads) and its polling are the harness's, not the console's, so the first two wait on
// the page's own observer instead. Beside them, the federated console's page load of /Dashboard →
// its tiles drawn (the one bundle holds the pick list alone), on the page's clock.
// Run (after pnpm build): BENCH_DATABASE_URL=postgres://… pnpm --filter e2e bench:first-rows
//                     or: BENCH_DATA_DIR=/path/of/sqlite/data pnpm --filter e2e bench:first-rows
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, launchBrowser, signIn } from '../support/browser';
import { repoRoot, startServer, stopServer } from '../support/server';
import { median, shownOnPage, watchFor } from './harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const FIRST_ROW = '[data-testid="device-row"]';
const TILES_DRAWN = '[data-state="ready"]';
const ONE_BUNDLE_DIR = path.join(repoRoot, '.bench/one-bundle');
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

function target(): Record<string, string> {
  if (process.env.BENCH_DATABASE_URL) return { DATABASE_URL: process.env.BENCH_DATABASE_URL };
  if (process.env.BENCH_DATA_DIR) return { VERITAS_DATA_DIR: process.env.BENCH_DATA_DIR };
  throw new Error(
    'Set BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR (SQLite) to a database loaded with load:volume',
  );
}

function buildOneBundle(): void {
  const webpack = path.join(repoRoot, 'node_modules/.bin/webpack');
  const config = path.join(repoRoot, 'e2e/bench/one-bundle/webpack.config.cjs');
  const build = spawnSync(webpack, ['--config', config, '--mode', 'production'], {
    cwd: path.join(repoRoot, 'shell'),
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`the one-bundle build failed:\n${build.stdout}\n${build.stderr}`);
}

/** What a response of the console says about its content and transport, rather than about security. */
const REPRESENTATION_HEADERS = new Set([
  'accept-ranges',
  'cache-control',
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'date',
  'etag',
  'keep-alive',
  'last-modified',
  'transfer-encoding',
  'vary',
]);

/**
 * The security headers the console sends with its pages and files (CSP, Cross-Origin-Opener-Policy
 * and the rest): the one bundle is sent with them too, so both builds pay what they cost. Chromium
 * starts a page whose opener policy differs from the page before (here about:blank) in a browsing
 * context group of its own, without the scripts the last one had in memory.
 */
async function securityHeadersOf(consoleUrl: string): Promise<Record<string, string>> {
  const { headers } = await fetch(new URL('/ListDevices', consoleUrl));
  return Object.fromEntries([...headers].filter(([name]) => !REPRESENTATION_HEADERS.has(name)));
}

/**
 * The one-bundle build on an origin of its own, as the console serves the shell (its page document
 * for any page path, content-hashed files immutable, the console's security headers), with the
 * API (/veritas, /remotes.json) passed on to the console's server.
 */
async function serveOneBundle(api: string): Promise<{ url: string; close(): Promise<void> }> {
  const securityHeaders = await securityHeadersOf(api);
  const server = http.createServer((request, response) => {
    const { pathname } = new URL(request.url!, 'http://localhost');
    if (pathname.startsWith('/veritas/') || pathname === '/remotes.json') {
      const upstream = http.request(new URL(request.url!, api), { method: request.method, headers: request.headers });
      upstream.on('response', (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      });
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
      return;
    }
    const file = path.join(ONE_BUNDLE_DIR, pathname);
    const served = file.startsWith(ONE_BUNDLE_DIR) && existsSync(file) && statSync(file).isFile() ? file : null;
    if (!served) {
      void sendPageDocument(api, request, response, securityHeaders);
      return;
    }
    const sent = served;
    response.writeHead(200, {
      ...securityHeaders,
      'Content-Type': CONTENT_TYPES[path.extname(sent)] ?? 'application/octet-stream',
      'Cache-Control': sent.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
    });
    createReadStream(sent).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A page path of the one bundle: the console's own page document for the viewer (its composition
 * inlined, as the one bundle's shell reads it) with the one bundle's scripts in place of the
 * console's and without the preloads of the remotes' files, which the one bundle does not load.
 */
async function sendPageDocument(
  api: string,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  securityHeaders: Record<string, string>,
): Promise<void> {
  const consoleDocument = await fetch(new URL(request.url!, api), {
    headers: request.headers.cookie ? { cookie: request.headers.cookie } : {},
  });
  const scripts = (await readFile(path.join(ONE_BUNDLE_DIR, 'index.html'), 'utf8')).match(
    /<script\b[^>]*\bsrc=[^>]*><\/script>/g,
  );
  const html = (await consoleDocument.text())
    .replace(/<link rel="preload"[^>]*>/g, '')
    .replace(/<script\b[^>]*\bsrc=[^>]*><\/script>/g, '')
    .replace('</title>', `</title>${(scripts ?? []).join('')}`);
  response.writeHead(consoleDocument.status, {
    ...securityHeaders,
    'Content-Type': CONTENT_TYPES['.html']!,
    'Cache-Control': 'no-cache',
  });
  response.end(html);
}

async function signedInPage(browser: Browser, baseURL: string, awaited = FIRST_ROW): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 900 } });
  // When the first row (or `awaited`) shows on the page's own clock (from the navigation's start),
  // without the round trips between the browser and this script that the wall-clock figure includes.
  await watchFor(context, awaited);
  const page = await context.newPage();
  await signIn(page, DEMO.admin, DEMO_PASSWORD);
  return page;
}

/**
 * A page load of /ListDevices → its first row, in ms: by this script's clock (the page tells it
 * when the row is in), and by the page's.
 */
async function pageLoad(page: Page): Promise<{ wall: number; onPage: number }> {
  await page.goto('about:blank');
  const startedAt = Date.now();
  await page.goto('/ListDevices', { waitUntil: 'commit' });
  const onPage = await shownOnPage(page);
  return { wall: Date.now() - startedAt, onPage };
}

/** A page load of /Dashboard from about:blank → its tiles drawn, on the page's clock, in ms. */
async function dashboardLoad(page: Page): Promise<number> {
  await page.goto('about:blank');
  await page.goto('/Dashboard', { waitUntil: 'commit' });
  return shownOnPage(page);
}

/** The Deployments page (the shell's own, in both builds), loaded: where the navigations below start. */
async function openDeployments(page: Page): Promise<void> {
  await page.goto('/Deployments');
  await page.getByRole('heading', { name: 'Deployments' }).waitFor({ timeout: 60_000 });
}

/**
 * A page load of /ListDevices in a tab already showing the console (a reload, a link or an address
 * typed there): from the Deployments page, of the same origin and opener policy, so Chromium keeps
 * the tab's renderer and the scripts it compiled. By this script's clock, in ms.
 */
async function pageLoadInConsoleTab(page: Page): Promise<number> {
  await openDeployments(page);
  const startedAt = Date.now();
  await page.goto('/ListDevices', { waitUntil: 'commit' });
  await shownOnPage(page);
  return Date.now() - startedAt;
}

/**
 * The same page load awaited as a Playwright test awaits a row: the navigation's load event, then
 * a locator, whose script and polling run in the page while it loads. By this script's clock, in ms.
 */
async function pageLoadByLocator(page: Page): Promise<number> {
  await page.goto('about:blank');
  const startedAt = Date.now();
  await page.goto('/ListDevices');
  await page.locator(FIRST_ROW).first().waitFor({ timeout: 60_000 });
  return Date.now() - startedAt;
}

/**
 * From the Deployments page (the shell's own, in both builds), left idle for a moment, a
 * navigation inside the console to /ListDevices → its first row, in ms.
 */
async function inConsole(page: Page): Promise<number> {
  await openDeployments(page);
  await page.waitForTimeout(1500);
  return page.evaluate(
    (selector) =>
      new Promise<number>((resolve) => {
        const start = performance.now();
        const check = () =>
          document.querySelector(selector) ? resolve(performance.now() - start) : requestAnimationFrame(check);
        window.history.pushState({}, '', '/ListDevices');
        window.dispatchEvent(new PopStateEvent('popstate'));
        requestAnimationFrame(check);
      }),
    FIRST_ROW,
  );
}

async function main(): Promise<void> {
  buildOneBundle();
  const figures: Record<string, number[]> = {
    'page load, federated': [],
    'page load, one bundle': [],
    "page load on the page's clock, federated": [],
    "page load on the page's clock, one bundle": [],
    'page load awaited by a locator, federated': [],
    'page load awaited by a locator, one bundle': [],
    'page load in a console tab, federated': [],
    'page load in a console tab, one bundle': [],
    'in the console, federated': [],
    'in the console, one bundle': [],
  };
  const tiles: number[] = [];
  const server = await startServer({ ...target(), VERITAS_DEMO: '0' });
  const oneBundle = await serveOneBundle(server.url);
  const browser = await launchBrowser();
  try {
    const federated = await signedInPage(browser, server.url);
    const bundled = await signedInPage(browser, oneBundle.url);
    const dashboard = await signedInPage(browser, server.url, TILES_DRAWN);
    // Alternating, so that both builds see the same state of the machine and of the database, and
    // each going first in every other run: the page load right after the navigations inside the
    // console was the slower one, by up to a quarter, whichever build it was.
    const builds = [
      ['federated', federated],
      ['one bundle', bundled],
    ] as const;
    for (let run = 0; run < RUNS; run++) {
      const inTurn = run % 2 ? [...builds].reverse() : builds;
      for (const [build, page] of inTurn) {
        const { wall, onPage } = await pageLoad(page);
        figures[`page load, ${build}`]!.push(wall);
        figures[`page load on the page's clock, ${build}`]!.push(onPage);
        figures[`page load awaited by a locator, ${build}`]!.push(await pageLoadByLocator(page));
        figures[`page load in a console tab, ${build}`]!.push(await pageLoadInConsoleTab(page));
      }
      for (const [build, page] of inTurn) figures[`in the console, ${build}`]!.push(await inConsole(page));
      tiles.push(await dashboardLoad(dashboard));
    }
  } finally {
    await browser.close();
    await oneBundle.close();
    await stopServer(server);
  }
  for (const [name, values] of Object.entries(figures))
    console.log(
      `navigation → first pick-list row, ${name}: median ${median(values).toFixed(0)} ms (runs ${values.map((v) => v.toFixed(0)).join(', ')})`,
    );
  for (const navigation of [
    'page load',
    "page load on the page's clock",
    'page load awaited by a locator',
    'page load in a console tab',
    'in the console',
  ]) {
    const ratio = median(figures[`${navigation}, federated`]!) / median(figures[`${navigation}, one bundle`]!);
    console.log(`${navigation}: federated / one bundle = ${ratio.toFixed(2)}× (goal ≤ 1.2×)`);
  }
  console.log(
    `page load of /Dashboard → tiles drawn on the page's clock, federated: median ${median(tiles).toFixed(0)} ms (runs ${tiles.map((v) => v.toFixed(0)).join(', ')}; goal ≤ 350 ms)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
