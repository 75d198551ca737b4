// Benchmark of the live console (docs/events.md): a field scan submitted through the mobile app's
// call → its row on an open Device Pick List shows the new status, without reload. Two set-ups:
// one instance (`pnpm start`'s composition, SQLite), and a fleet of two behind nginx on PostgreSQL
// with the scans sent to instance 1 and the browser on instance 2 (the event crosses instances
// through LISTEN/NOTIFY). Prints p50 / p95 / max over SCANS submissions. BENCH_LIVE=single|fleet
// runs one set-up only. Needs the production build and, for the fleet, nginx.
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, launchBrowser, signIn } from '../support/browser';
import { startServer, stopServer } from '../support/server';
import { startFleet } from '../../scripts/fleet';

const SCANS = Number(process.env.BENCH_SCANS ?? 40);
const OPERATOR = 'wm_blr';
const HUB = 'BLR01';

interface PendingRecord {
  tracking_id: { tracking_id: string; hub_code: string | null };
  is_submit: boolean;
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Signs the operator in to the mobile app's calls: its bearer token. */
async function appToken(base: string): Promise<string> {
  const response = await fetch(`${base}veritas/app/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: OPERATOR, password: DEMO_PASSWORD }),
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

async function measure(label: string, browserBase: string, scanBase: string): Promise<void> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: browserBase, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await signIn(page, DEMO.admin, DEMO_PASSWORD);
    const records = (await (await page.request.get('/veritas/api/get_status/')).json()) as PendingRecord[];
    const pending = records
      .filter((r) => !r.is_submit && r.tracking_id.hub_code === HUB)
      .map((r) => r.tracking_id.tracking_id);
    if (pending.length < SCANS) throw new Error(`only ${pending.length} pending records of ${HUB}`);
    await page.goto('/ListDevices');
    await page.locator('[data-testid="device-row"]').first().waitFor();
    await page.locator('[data-testid="live-indicator"][data-state="connected"]').waitFor();
    await watchRows(page);

    const token = await appToken(scanBase);
    const latencies: number[] = [];
    for (const trackingId of pending.slice(0, SCANS)) {
      await page.evaluate((id) => (window as unknown as { watched: Set<string> }).watched.add(id), trackingId);
      const sentAt = Date.now();
      const response = await fetch(`${scanBase}veritas/app/scan/submit/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
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
    console.log(
      `${label}: scan submitted → row updated on screen, ${SCANS} scans: p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms, max ${latencies.at(-1)} ms`,
    );
  } finally {
    await browser.close();
  }
}

async function main() {
  const which = process.env.BENCH_LIVE;
  if (which !== 'fleet') {
    const server = await startServer();
    try {
      await measure('one instance (SQLite)', server.url, server.url);
    } finally {
      await stopServer(server);
    }
  }
  if (which !== 'single') {
    const fleet = await startFleet({
      instances: 2,
      port: Number(process.env.BENCH_FLEET_PORT ?? 18500),
      output: () => {},
    });
    try {
      await measure(
        'two instances on PostgreSQL (scan through instance 1, browser on instance 2)',
        fleet.instances[1]!.url,
        fleet.instances[0]!.url,
      );
    } finally {
      await fleet.stop();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
