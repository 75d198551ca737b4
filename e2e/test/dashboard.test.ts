// SPEC §2/§4/§9 Dashboard on the demo data: for every timeframe, for All Hubs and one hub, the
// tiles and top-five tables equal figures computed here, independently, from api/get_status/.
import { Page } from 'playwright-core';
import { DEMO, freshPagePerTest, signIn } from '../support/browser';

interface StatusRecord {
  tracking_id: { hub_code: string | null; created_date: string | null };
  is_submit: boolean;
  is_verified: boolean;
  device_result: string | null;
  submitted_by: { username: string } | null;
}

const TIMEFRAMES = { today: 1, last7: 7, last15: 15, last30: 30 } as const;
type Timeframe = keyof typeof TIMEFRAMES;

const percent = (part: number, whole: number) => `${(whole ? (part / whole) * 100 : 0).toFixed(2)}%`;
const rejected = (r: StatusRecord) => r.device_result !== 'passed';

/** Records whose created_date falls on one of the last `days` local calendar days (today included). */
function inTimeframe(record: StatusRecord, days: number, now: Date): boolean {
  const created = record.tracking_id.created_date ? new Date(record.tracking_id.created_date) : null;
  if (!created || Number.isNaN(created.getTime())) return false;
  const first = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));
  const afterLast = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return created >= first && created < afterLast;
}

/** Top five by rejection count (ties by name) as the table shows them: name, count, percent. */
function topFive(groups: Map<string, { count: number; total: number }>): string[][] {
  return [...groups]
    .sort(([a, x], [b, y]) => y.count - x.count || a.localeCompare(b))
    .slice(0, 5)
    .map(([name, { count, total }]) => [name, String(count), percent(count, total)]);
}

function expectedFigures(records: StatusRecord[], hub: string, timeframe: Timeframe, now: Date) {
  const shown = records.filter(
    (r) => inTimeframe(r, TIMEFRAMES[timeframe], now) && (hub === 'all' || r.tracking_id.hub_code?.toLowerCase() === hub.toLowerCase()),
  );
  const submitted = shown.filter((r) => r.is_submit);
  const hubs = new Map<string, { count: number; total: number }>();
  for (const r of shown) {
    const group = hubs.get(r.tracking_id.hub_code || 'Unknown') ?? { count: 0, total: 0 };
    group.total++;
    if (r.is_submit && rejected(r)) group.count++;
    hubs.set(r.tracking_id.hub_code || 'Unknown', group);
  }
  const operators = new Map<string, { count: number; total: number }>();
  for (const r of submitted) {
    const name = r.submitted_by?.username || 'Unknown';
    const group = operators.get(name) ?? { count: 0, total: 0 };
    group.total++;
    if (rejected(r)) group.count++;
    operators.set(name, group);
  }
  return {
    verified: String(submitted.length),
    rejection: percent(submitted.filter(rejected).length, submitted.length),
    pending: String(shown.length - submitted.length),
    topHubs: topFive(hubs),
    topOperators: topFive(operators),
  };
}

async function tableRows(page: Page, caption: string): Promise<string[][]> {
  const rows = page.getByRole('table', { name: caption }).locator('tbody tr');
  const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));
  // An empty table shows a single 'No data available' row.
  return cells.filter((row) => !(row.length === 1 && row[0] === 'No data available'));
}

async function shownFigures(page: Page) {
  const text = (id: string) => page.getByTestId(id).textContent().then((t) => t!.trim());
  return {
    verified: await text('tile-verified'),
    rejection: await text('tile-rejection'),
    pending: await text('tile-pending'),
    topHubs: await tableRows(page, 'Top Five Rejection Hubs'),
    topOperators: await tableRows(page, 'Top Five Rejecting Operators'),
  };
}

const ready = (page: Page) => page.locator('[data-state="ready"]').waitFor();

const tab = freshPagePerTest();
let page: Page;
beforeEach(() => {
  page = tab.page();
});

test('tiles and top-five tables match api/get_status/ for every timeframe, for All Hubs and for one hub', async () => {
  await signIn(page, DEMO.admin);
  const records: StatusRecord[] = await (await page.request.get('/veritas/api/get_status/')).json();
  for (const hub of ['all', 'BLR01']) {
    for (const timeframe of Object.keys(TIMEFRAMES) as Timeframe[]) {
      await page.goto(`/Dashboard?hub=${hub}&timeframe=${timeframe}`);
      await ready(page);
      const now = new Date();
      expect({ hub, timeframe, ...(await shownFigures(page)) }).toEqual({ hub, timeframe, ...expectedFigures(records, hub, timeframe, now) });
    }
  }
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

test("an executive starts on their own hub (hubCode lower-cased) and every chart is drawn", async () => {
  await signIn(page, DEMO.executive);
  await page.goto('/Dashboard');
  await ready(page);
  await page.getByRole('heading', { name: /blr01/ }).waitFor();
  for (const chart of ['chart-rejection-trend', 'chart-daily-volume', 'chart-error-distribution']) {
    await page.getByTestId(chart).locator('canvas').waitFor();
  }
});
