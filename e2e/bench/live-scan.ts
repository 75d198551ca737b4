// Benchmark of the live console (docs/events.md): a field scan submitted through the mobile app's
// call → its row on an open Device Pick List shows the new status, without reload. Set-ups:
// - one instance (`pnpm start`'s composition, SQLite) with one console open;
// - the same instance with STREAMS more consoles holding api/events/ open while the simulator
//   runs (api/bench/live-load.ts, in a process of its own); the pick list is filtered to the demo
//   shipment, so the simulator's scans, re-read like any change, do not push the watched row out
//   of view;
// - a fleet of two behind nginx on PostgreSQL with the scans sent to instance 1 and the browser on
//   instance 2 (the event crosses instances through LISTEN/NOTIFY).
// Prints p50 / p95 / max over SCANS submissions for each of RUNS runs, and their medians.
// BENCH_LIVE=single|fleet runs one instance or the fleet only. Needs the production build and,
// for the fleet, nginx.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import type { Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, launchBrowser, signIn } from '../support/browser';
import { repoRoot, startServer, stopServer } from '../support/server';
import { startFleet } from '../../scripts/fleet';
import { median } from './harness';

const SCANS = Number(process.env.BENCH_SCANS ?? 40);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 500);
/** The demo hubs' field operators (api/seed/demo.ts): each scans its hub's pending records. */
const OPERATORS: Record<string, string> = { BLR01: 'wm_blr', DEL02: 'wm_del', MUM03: 'wm_mum', HYD04: 'wm_hyd' };

interface PendingRecord {
  tracking_id: { tracking_id: string; hub_code: string | null };
  is_submit: boolean;
}

/** The demo shipment's tracking-ID prefix (api/seed/demo.ts); the simulator's start with SIM. */
const DEMO_SHIPMENT = 'FMPP31';

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface Figures {
  p50: number;
  p95: number;
  max: number;
}

/** Signs `operator` in to the mobile app's calls: its bearer token. */
async function appToken(base: string, operator: string): Promise<string> {
  const response = await fetch(`${base}veritas/app/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: operator, password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as { token?: string };
  if (!body.token) throw new Error(`app/login/: ${response.status}`);
  return body.token;
}

/**
 * In the page: the moment (Date.now(), one clock on one machine) each watched tracking ID's row
 * first shows 'Submitted for verification'.
 */
async function watchRows(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { watched: Set<string>; seenAt: Record<string, number> };
    w.watched = new Set();
    w.seenAt = {};
    new MutationObserver(() => {
      if (w.watched.size === 0) return;
      for (const row of document.querySelectorAll('[data-testid="device-row"]')) {
        const text = row.textContent ?? '';
        if (!text.includes('Submitted for verification')) continue;
        for (const id of w.watched) {
          if (text.includes(id)) {
            w.seenAt[id] = Date.now();
            w.watched.delete(id);
          }
        }
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** One run: SCANS scans of the demo shipment's pending records, one after another, on the list at `listPath`. */
async function measure(browserBase: string, scanBase: string, listPath = '/ListDevices'): Promise<Figures> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: browserBase, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await signIn(page, DEMO.admin, DEMO_PASSWORD);
    const records = (await (await page.request.get('/veritas/api/get_status/')).json()) as PendingRecord[];
    const pending = records.filter(
      (r) =>
        !r.is_submit && r.tracking_id.hub_code! in OPERATORS && r.tracking_id.tracking_id.startsWith(DEMO_SHIPMENT),
    );
    if (pending.length < SCANS) throw new Error(`only ${pending.length} pending records`);
    await page.goto(listPath);
    await page.locator('[data-testid="device-row"]').first().waitFor();
    await page.locator('[data-testid="live-indicator"][data-state="connected"]').waitFor();
    await watchRows(page);

    const tokens = new Map<string, string>();
    for (const [hub, operator] of Object.entries(OPERATORS)) tokens.set(hub, await appToken(scanBase, operator));
    const latencies: number[] = [];
    for (const { tracking_id: scanned } of pending.slice(0, SCANS)) {
      const trackingId = scanned.tracking_id;
      await page.evaluate((id) => (window as unknown as { watched: Set<string> }).watched.add(id), trackingId);
      const sentAt = Date.now();
      const response = await fetch(`${scanBase}veritas/app/scan/submit/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.get(scanned.hub_code!)}` },
        body: JSON.stringify({
          tracking_id: trackingId,
          mac_address: crypto.randomBytes(6).toString('hex').toUpperCase(),
          model: 'Bench Model',
          hardware_id: `HW-${trackingId}`,
        }),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`app/scan/submit/ ${trackingId}: ${response.status}`);
      const shownAt = await page.waitForFunction(
        (id) => (window as unknown as { seenAt: Record<string, number> }).seenAt[id],
        trackingId,
        {
          timeout: 15_000,
        },
      );
      latencies.push(((await shownAt.jsonValue()) as number) - sentAt);
      // Scans a few hundred ms apart, as a busy hub's are.
      await page.waitForTimeout(250);
    }
    latencies.sort((a, b) => a - b);
    return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1)! };
  } finally {
    await browser.close();
  }
}

/** The figures of each run, then their medians. */
function report(label: string, all: Figures[]): void {
  const each = all.map((f) => `${f.p50}/${f.p95}/${f.max}`).join(', ');
  console.log(
    `${label}: scan submitted → row updated on screen, ${SCANS} scans × ${all.length} runs (p50/p95/max: ${each}): median p50 ${median(all.map((f) => f.p50))} ms, p95 ${median(all.map((f) => f.p95))} ms, max ${median(all.map((f) => f.max))} ms`,
  );
}

/** Starts api/bench/live-load.ts against `url`: resolves once the simulator's scans reach its streams; answers its stop. */
async function startLoad(url: string): Promise<() => Promise<void>> {
  const api = path.join(repoRoot, 'api');
  const child = spawn(path.join(api, 'node_modules/.bin/tsx'), ['bench/live-load.ts', url, String(STREAMS)], {
    cwd: api,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = readline.createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => (line === 'ready' ? resolve() : console.log(`   load: ${line}`)));
    child.once('exit', (code) => reject(new Error(`live-load ended (${code}) before the simulator ran`)));
  });
  return async () => {
    child.kill('SIGTERM');
    await exited;
  };
}

async function main() {
  const which = process.env.BENCH_LIVE;
  if (which !== 'fleet') {
    // A fresh instance each run: a run scans pending records of the demo data in each set-up.
    const alone: Figures[] = [];
    const loaded: Figures[] = [];
    for (let run = 0; run < RUNS; run++) {
      const server = await startServer();
      try {
        alone.push(await measure(server.url, server.url));
        const stopLoad = await startLoad(server.url);
        try {
          loaded.push(await measure(server.url, server.url, `/ListDevices?q=${DEMO_SHIPMENT}`));
        } finally {
          await stopLoad();
        }
      } finally {
        await stopServer(server);
      }
    }
    report('one instance (SQLite), one console', alone);
    report(`one instance (SQLite), ${STREAMS} more consoles while the simulator runs`, loaded);
  }
  if (which !== 'single') {
    const fleet = await startFleet({
      instances: 2,
      port: Number(process.env.BENCH_FLEET_PORT ?? 18500),
      output: () => {},
    });
    try {
      const figures: Figures[] = [];
      for (let run = 0; run < RUNS; run++)
        figures.push(await measure(fleet.instances[1]!.url, fleet.instances[0]!.url));
      report('two instances on PostgreSQL (scan through instance 1, browser on instance 2)', figures);
    } finally {
      await fleet.stop();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
