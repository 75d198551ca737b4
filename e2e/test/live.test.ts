// The live console (docs/events.md#in-the-console): an open Device Pick List and an open Dashboard
// follow a field scan without reload, the top bar's live indicator tells the stream's state, and a
// console on a server that follows the spec alone opens no stream and shows no indicator.
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import {
  DEMO,
  DEMO_PASSWORD,
  baseUrl,
  freshPagePerTest,
  launchBrowser,
  markDocument,
  signIn,
  stillMarked,
} from '../support/browser';
import { startServer, stopServer } from '../support/server';

const OPERATOR = 'wm_blr';
const HUB = 'BLR01';

interface StatusRecord {
  tracking_id: { tracking_id: string; hub_code: string | null; created_date: string | null };
  is_submit: boolean;
}

const indicator = (page: Page, state: string) => page.locator(`[data-testid="live-indicator"][data-state="${state}"]`);

/** A pending record of the operator's hub, the most recently created (so today's dashboard counts it). */
async function pendingRecord(page: Page, taken: Set<string>): Promise<string> {
  const records = (await (await page.request.get('/veritas/api/get_status/')).json()) as StatusRecord[];
  const pending = records
    .filter((r) => !r.is_submit && r.tracking_id.hub_code === HUB && !taken.has(r.tracking_id.tracking_id))
    .sort((a, b) => (b.tracking_id.created_date ?? '').localeCompare(a.tracking_id.created_date ?? ''));
  const trackingId = pending[0]!.tracking_id.tracking_id;
  taken.add(trackingId);
  return trackingId;
}

/** The mobile app's doorstep submission of `trackingId` (stored whatever its result: docs/field-scans.md#submission). */
async function submitScan(base: string, trackingId: string): Promise<void> {
  const login = await fetch(new URL('veritas/app/login/', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: OPERATOR, password: DEMO_PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const submit = await fetch(new URL('veritas/app/scan/submit/', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      tracking_id: trackingId,
      mac_address: crypto.randomBytes(6).toString('hex').toUpperCase(),
      model: 'Live Test Model',
      hardware_id: `HW-${trackingId}`,
    }),
  });
  expect(submit.status).toBe(200);
}

/**
 * Holds back the tab's event streams (api/events/) until the answer is called: as when a page's
 * first reads answer before the stream opens, while changes come in. After it, streams pass at once
 * (each test has a page of its own).
 */
async function holdEventStream(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/veritas\/api\/events\//, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

describe('the live console on our server', () => {
  const tab = freshPagePerTest();
  const taken = new Set<string>();
  let page: Page;
  beforeEach(async () => {
    page = tab.page();
    await signIn(page, DEMO.admin);
  });

  test('an open Device Pick List shows a field scan’s new status without reload', async () => {
    const trackingId = await pendingRecord(page, taken);
    await page.goto('/ListDevices');
    await page.getByTestId('device-row').first().waitFor();
    await indicator(page, 'connected').waitFor();
    const countBefore = Number(await page.getByTestId('record-count').getAttribute('data-count'));
    await markDocument(page);

    await submitScan(baseUrl(), trackingId);

    const row = page.getByTestId('device-row').filter({ hasText: trackingId });
    await row.filter({ hasText: 'Submitted for verification' }).waitFor({ timeout: 5000 });
    expect(await stillMarked(page)).toBe(true);
    // A record changed, none added: the unfiltered count stays.
    expect(Number(await page.getByTestId('record-count').getAttribute('data-count'))).toBe(countBefore);
  });

  test("a field scan after the page's first read, before its stream opened, still reaches the open Device Pick List (docs/events.md#the-first-stream)", async () => {
    const trackingId = await pendingRecord(page, taken);
    // The tab's stream held back until the scan is stored.
    const release = await holdEventStream(page);
    // The list searched for the record, so that its row is in view whatever the earlier tests changed.
    await page.goto(`/ListDevices?q=${encodeURIComponent(trackingId)}`);
    const row = page.getByTestId('device-row').filter({ hasText: trackingId });
    await row.waitFor();
    await markDocument(page);

    await submitScan(baseUrl(), trackingId);
    release();

    await row.filter({ hasText: 'Submitted for verification' }).waitFor({ timeout: 5000 });
    expect(await stillMarked(page)).toBe(true);
  });

  test("after a sign-in on the login page, a field scan between the Dashboard's first read and its stream's opening still reaches its tiles (docs/events.md#the-first-stream)", async () => {
    const trackingId = await pendingRecord(page, taken);
    await page.context().clearCookies();
    await page.goto('/login');
    const release = await holdEventStream(page);
    await page.getByLabel('Username').fill(DEMO.admin);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.locator('[data-state="ready"]').waitFor();
    const verified = Number((await page.getByTestId('tile-verified').textContent())!.trim());
    await markDocument(page);

    await submitScan(baseUrl(), trackingId);
    release();

    await page.waitForFunction(
      (expected) => document.querySelector('[data-testid="tile-verified"]')?.textContent?.trim() === expected,
      String(verified + 1),
      { timeout: 5000 },
    );
    expect(await stillMarked(page)).toBe(true);
  });

  test('a pick list filtered to pending records drops the record a scan submitted', async () => {
    const trackingId = await pendingRecord(page, taken);
    await page.goto(`/ListDevices?status=pending&q=${encodeURIComponent(trackingId)}`);
    await page.getByTestId('device-row').filter({ hasText: trackingId }).waitFor();
    await indicator(page, 'connected').waitFor();

    await submitScan(baseUrl(), trackingId);

    await page.waitForFunction(
      () => document.querySelector('[data-testid="record-count"]')?.getAttribute('data-count') === '0',
      undefined,
      {
        timeout: 5000,
      },
    );
    expect(await page.getByTestId('device-row').filter({ hasText: trackingId }).count()).toBe(0);
  });

  test('an open Dashboard’s tiles follow a field scan', async () => {
    const trackingId = await pendingRecord(page, taken);
    await page.goto('/Dashboard');
    await page.locator('[data-state="ready"]').waitFor();
    await indicator(page, 'connected').waitFor();
    const tile = async (id: string) => Number((await page.getByTestId(id).textContent())!.trim());
    const verified = await tile('tile-verified');
    const pending = await tile('tile-pending');

    await submitScan(baseUrl(), trackingId);

    await page.waitForFunction(
      (expected) => document.querySelector('[data-testid="tile-verified"]')?.textContent?.trim() === expected,
      String(verified + 1),
      {
        timeout: 5000,
      },
    );
    expect(await tile('tile-pending')).toBe(pending - 1);
  });

  test('the indicator says Paused while the browser is offline, then Live again', async () => {
    await page.goto('/ListDevices');
    await indicator(page, 'connected').waitFor();
    await expect(page.getByTestId('live-indicator').textContent()).resolves.toContain('Live');

    await page.context().setOffline(true);
    await indicator(page, 'paused').waitFor();
    await expect(page.getByTestId('live-indicator').textContent()).resolves.toContain('Paused');

    await page.context().setOffline(false);
    await indicator(page, 'connected').waitFor();
  });
});

describe('the live console when its server goes away', () => {
  test('the indicator says Reconnecting… once the stream is lost', async () => {
    const server = await startServer();
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext({ baseURL: server.url })).newPage();
      await signIn(page, DEMO.admin);
      await page.goto('/ListDevices');
      await indicator(page, 'connected').waitFor();
      // role="status": screen readers hear the change; the text, not only the dot's colour, tells it.
      await expect(page.getByRole('status').filter({ hasText: 'Live' }).count()).resolves.toBeGreaterThan(0);

      await stopServer(server);

      await indicator(page, 'reconnecting').waitFor({ timeout: 15_000 });
      await expect(page.getByTestId('live-indicator').textContent()).resolves.toContain('Reconnecting');
    } finally {
      await browser.close();
      await stopServer(server);
    }
  }, 90_000);

  test('a server that follows the spec alone: no stream is opened and no indicator is shown', async () => {
    const server = await startServer({ VERITAS_SPEC_ONLY: '1' });
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext({ baseURL: server.url })).newPage();
      const streams: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/veritas/api/events')) streams.push(request.url());
      });
      await signIn(page, DEMO.admin);
      await page.goto('/ListDevices');
      await page.getByTestId('device-row').first().waitFor();
      await page.goto('/Dashboard');
      await page.locator('[data-state="ready"]').waitFor();
      expect(streams).toEqual([]);
      expect(await page.getByTestId('live-indicator').count()).toBe(0);
    } finally {
      await browser.close();
      await stopServer(server);
    }
  }, 90_000);
});
