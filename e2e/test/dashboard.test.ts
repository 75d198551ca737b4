// docs/dashboard.md on the demo data: for every timeframe, for All Hubs and one hub, the
// tiles and top-five tables equal figures computed independently from api/get_status/
// (support/dashboard-figures.ts). Both modes of docs/architecture.md#server-features: figures
// computed by our server (api/dashboard/), and computed in the page from api/get_status/ when the
// server follows the spec alone (VERITAS_SPEC_ONLY).
import { Page } from 'playwright-core';
import { DEMO, baseUrl, freshPagePerTest, signIn } from '../support/browser';
import { startServer, stopServer, type RunningServer } from '../support/server';
import {
  TIMEFRAMES,
  expectedFigures,
  ready,
  shownFigures,
  type StatusRecord,
  type Timeframe,
} from '../support/dashboard-figures';

type Mode = 'server figures' | 'get_status';

describe.each<Mode>(['server figures', 'get_status'])('%s', (mode) => {
  let specOnly: RunningServer | undefined;
  beforeAll(async () => {
    if (mode === 'get_status') specOnly = await startServer({ VERITAS_SPEC_ONLY: '1' });
  }, 90_000);
  afterAll(async () => {
    if (specOnly) await stopServer(specOnly);
  });
  const tab = freshPagePerTest({ baseURL: () => specOnly?.url ?? baseUrl() });
  let page: Page;
  /** The API calls the page made, as paths. */
  let calls: string[];
  beforeEach(() => {
    page = tab.page();
    calls = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/veritas/api/')) calls.push(pathname);
    });
  });

  test('tiles and top-five tables match api/get_status/ for every timeframe, for All Hubs and for one hub', async () => {
    await signIn(page, DEMO.admin);
    const records: StatusRecord[] = await (await page.request.get('/veritas/api/get_status/')).json();
    calls = [];
    for (const hub of ['all', 'BLR01']) {
      for (const timeframe of Object.keys(TIMEFRAMES) as Timeframe[]) {
        await page.goto(`/Dashboard?hub=${hub}&timeframe=${timeframe}`);
        await ready(page);
        const now = new Date();
        expect({ hub, timeframe, ...(await shownFigures(page)) }).toEqual({
          hub,
          timeframe,
          ...expectedFigures(records, hub, timeframe, now),
        });
      }
    }
    // The figures came from where the server's features say.
    if (mode === 'server figures') expect(calls.filter((path) => path === '/veritas/api/get_status/')).toEqual([]);
    else expect(calls.filter((path) => path === '/veritas/api/dashboard/')).toEqual([]);
    expect(calls).toContain(mode === 'server figures' ? '/veritas/api/dashboard/' : '/veritas/api/get_status/');
  });

  test('admin starts on All Hubs and Last 30 Days; changing the timeframe updates the URL and the figures', async () => {
    await signIn(page, DEMO.admin);
    await page.goto('/Dashboard');
    await ready(page);
    await page.getByRole('heading', { name: /All Hubs/ }).waitFor();
    const records: StatusRecord[] = await (await page.request.get('/veritas/api/get_status/')).json();
    expect(await shownFigures(page)).toEqual(expectedFigures(records, 'all', 'last30', new Date()));

    await page.getByRole('combobox', { name: 'Timeframe' }).click();
    await page.getByRole('option', { name: 'Last 7 Days' }).click();
    await page.waitForURL(/timeframe=last7/);
    await page.waitForFunction(
      (expected) => document.querySelector('[data-testid="tile-pending"]')?.textContent?.trim() === expected,
      expectedFigures(records, 'all', 'last7', new Date()).pending,
    );
  });

  test("a hub no group has in the address (a return centre's code, a typo) gives way to the start hub", async () => {
    await signIn(page, DEMO.executive);
    for (const unknown of ['RC-NORTH', 'NOPE99']) {
      await page.goto(`/Dashboard?hub=${unknown}&timeframe=last7`);
      await page.waitForURL(/hub=blr01/);
      await page.getByRole('heading', { name: 'Dashboard · blr01' }).waitFor();
      expect(new URL(page.url()).searchParams.get('timeframe')).toBe('last7');
    }
  });

  test('an executive starts on their own hub (hubCode lower-cased) and every chart is drawn', async () => {
    await signIn(page, DEMO.executive);
    await page.goto('/Dashboard');
    await ready(page);
    await page.getByRole('heading', { name: /blr01/ }).waitFor();
    for (const chart of ['chart-rejection-trend', 'chart-daily-volume', 'chart-error-distribution']) {
      await page.getByTestId(chart).locator('canvas').waitFor();
    }
  });

  test("a chart's tooltips from the keyboard: Tab reaches the canvas with a visible focus, an arrow draws a day's tooltip, Escape takes it away", async () => {
    await signIn(page, DEMO.admin);
    await page.goto('/Dashboard?hub=all&timeframe=last30');
    await ready(page);
    const trend = page.getByRole('img', { name: 'Rejection Trend' });
    const volume = page.getByRole('img', { name: 'Daily Processed Volume' });
    const drawn = () => volume.evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL());
    const untouched = await drawn();

    await trend.focus();
    await page.keyboard.press('Tab');
    expect(await volume.evaluate((canvas) => canvas === document.activeElement)).toBe(true);
    expect(await volume.evaluate((canvas) => getComputedStyle(canvas).outlineStyle)).not.toBe('none');

    const scrolled = await page.evaluate(() => window.scrollY);
    await page.keyboard.press('ArrowRight');
    const firstDay = await drawn();
    expect(firstDay).not.toBe(untouched);
    await page.keyboard.press('ArrowRight');
    expect(await drawn()).not.toBe(firstDay);
    // The arrows move the tooltip, not the page.
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);

    await page.keyboard.press('Escape');
    expect(await drawn()).toBe(untouched);
  });
});
