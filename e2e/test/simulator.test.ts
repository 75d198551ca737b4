// After `pnpm simulate` (the field simulator, over the app's real HTTP calls): the devices list,
// a record's details timeline and the dashboard tiles agree with api/get_status/.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Page } from 'playwright-core';
import { DEMO, baseUrl, freshPagePerTest, signIn } from '../support/browser';
import { expectedFigures, ready, shownFigures, type StatusRecord } from '../support/dashboard-figures';
import { repoRoot } from '../support/server';

interface SimulatedRecord extends StatusRecord {
  tracking_id: StatusRecord['tracking_id'] & { tracking_id: string };
  is_verified_rc: boolean;
  verified_by: { username: string } | null;
  verified_by_rc: { username: string } | null;
}

let output: string;
let prefix: string;

beforeAll(async () => {
  // What `pnpm simulate` runs (api's script), against the suite's server.
  const { stdout } = await promisify(execFile)(
    path.join(repoRoot, 'api/node_modules/.bin/tsx'),
    ['sim/simulate.ts', '--url', baseUrl().replace(/\/$/, ''), '--operators', '4', '--records', '150', '--seed', '3'],
    { cwd: path.join(repoRoot, 'api') },
  );
  output = stdout;
  prefix = /^shipment (\S+)…/m.exec(output)![1]!;
}, 180_000);

const tab = freshPagePerTest();
let page: Page;
beforeEach(() => {
  page = tab.page();
});

async function statusRecords(): Promise<SimulatedRecord[]> {
  return (await page.request.get('/veritas/api/get_status/')).json();
}

test('the simulator prints the results of each call by code, the calls per second and the latency', () => {
  expect(output).toMatch(/^shipment \S+…: 150 rows stored, 0 skipped$/m);
  for (const call of ['check', 'submit', 'verify_hub', 'verify_rc'])
    expect(output).toMatch(new RegExp(`^${call} +\\d+ +.*passed \\d+`, 'm'));
  expect(output).toMatch(/app calls in [\d.]+ s: \d+ calls\/s; latency p50 [\d.]+ ms, p95 [\d.]+ ms/);
});

test("the devices list shows the run's records and a detached one's timeline names its field staff", async () => {
  await signIn(page, DEMO.admin);
  const simulated = (await statusRecords()).filter((r) => r.tracking_id.tracking_id.startsWith(prefix));
  expect(simulated).toHaveLength(150);
  const detached = simulated.find((r) => r.is_verified_rc)!;
  expect(detached.submitted_by!.username).toMatch(/^sim_.*_op\d+$/);

  await page.goto('/ListDevices');
  await page.getByPlaceholder('Filter by tracking id...').fill(prefix);
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="record-count"]')?.getAttribute('data-count') === String(n),
    simulated.length,
  );

  await page.getByPlaceholder('Filter by tracking id...').fill(detached.tracking_id.tracking_id);
  const row = page.locator('[data-testid="device-row"]').first();
  await row.getByText('Detatched').waitFor();
  await row.getByRole('button', { name: 'See Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Device Details' });
  for (const step of ['Submitted', 'Verified at Hub', 'Verified at RC'])
    await dialog.getByText(step, { exact: true }).waitFor();
  for (const user of [detached.submitted_by, detached.verified_by, detached.verified_by_rc])
    await dialog.getByText(user!.username).first().waitFor();
});

test("the dashboard's tiles and top-five tables of today agree with api/get_status/, for all hubs and for one", async () => {
  await signIn(page, DEMO.admin);
  const records = await statusRecords();
  const hub = records.find((r) => r.tracking_id.tracking_id.startsWith(prefix))!.tracking_id.hub_code!;
  for (const shown of ['all', hub]) {
    await page.goto(`/Dashboard?hub=${shown}&timeframe=today`);
    await ready(page);
    expect(await shownFigures(page)).toEqual(expectedFigures(records, shown, 'today', new Date()));
  }
});
