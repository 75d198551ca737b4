// The dashboard's figures (docs/dashboard.md) computed here, independently, from api/get_status/ records,
// and the same figures as the page shows them: tiles and top-five tables.
import { Page } from 'playwright-core';

export interface StatusRecord {
  tracking_id: { hub_code: string | null; created_date: string | null };
  is_submit: boolean;
  is_verified: boolean;
  device_result: string | null;
  submitted_by: { username: string } | null;
}

export const TIMEFRAMES = { today: 1, last7: 7, last15: 15, last30: 30 } as const;
export type Timeframe = keyof typeof TIMEFRAMES;

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

export function expectedFigures(records: StatusRecord[], hub: string, timeframe: Timeframe, now: Date) {
  const shown = records.filter(
    (r) =>
      inTimeframe(r, TIMEFRAMES[timeframe], now) &&
      (hub === 'all' || r.tracking_id.hub_code?.toLowerCase() === hub.toLowerCase()),
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
  const cells = await rows.evaluateAll((trs) =>
    // The name cell is the row's header (th scope="row"), the figures plain cells.
    trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent!.trim())),
  );
  // An empty table shows a single 'No data available' row.
  return cells.filter((row) => !(row.length === 1 && row[0] === 'No data available'));
}

export async function shownFigures(page: Page) {
  const text = (id: string) =>
    page
      .getByTestId(id)
      .textContent()
      .then((t) => t!.trim());
  return {
    verified: await text('tile-verified'),
    rejection: await text('tile-rejection'),
    pending: await text('tile-pending'),
    topHubs: await tableRows(page, 'Top Five Rejection Hubs'),
    topOperators: await tableRows(page, 'Top Five Rejecting Operators'),
  };
}

export const ready = (page: Page) => page.locator('[data-state="ready"]').waitFor();
