// docs/screens.md#upload-csv-file, docs/screens.md#download-data, docs/errors.md#report-download,
// docs/csv.md and docs/screens.md#download-apk — in a
// real browser against the real server: a shipment file dropped on the zone goes up in 1 MiB
// chunks and its rows are stored; the report of a day holds exactly that day's records of
// api/get_status/; the Data menu's Download APK saves the configured package.
import fs from 'node:fs';
import { Page } from 'playwright-core';
import { APK_BYTES } from '../support/global-setup';
import { DEMO, freshPagePerTest, signIn } from '../support/browser';
import { dropFile, SHIPMENT_HEADER } from '../support/upload';

const tab = freshPagePerTest();
let page: Page;
beforeEach(() => {
  page = tab.page();
});

const VALID_ROWS = 15_000;
/** Today as the date inputs and the report name it (local time, as the server counts days). */
const localDate = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * Tracking IDs and created dates of api/get_status/, read in the page (same origin, its session);
 * only these two fields cross to the test, the whole answer is several MB.
 */
const statusRecords = (): Promise<{ id: string; created: string | null }[]> =>
  page.evaluate(async () => {
    const records: { tracking_id: { tracking_id: string; created_date: string | null } }[] = await (
      await fetch('/veritas/api/get_status/')
    ).json();
    return records.map((r) => ({ id: r.tracking_id.tracking_id, created: r.tracking_id.created_date }));
  });

test('a dropped shipment CSV goes up in 1 MiB chunks; the result panel lists the duplicate and the bad row; the rows are stored', async () => {
  await signIn(page, DEMO.admin);
  await page.goto('/Upload');
  await page.getByRole('heading', { name: 'Upload CSV File' }).waitFor();

  const prefix = `E2EUP${Date.now().toString(36).toUpperCase()}`;
  const created = new Date(Date.now() - 60_000).toISOString();
  const ids = Array.from({ length: VALID_ROWS }, (_, i) => `${prefix}${String(i).padStart(6, '0')}`);
  const lines = ids.map((id) => `${id},BLR01,mobile,Samsung,Galaxy S23,false,,,${created}`);
  lines.push(`${ids[0]},BLR01,mobile,Samsung,Galaxy S23,false,,,${created}`); // row 15001: a duplicate
  lines.push(`${prefix}BAD,NO-SUCH-HUB,mobile,Samsung,Galaxy S23,false,,,${created}`); // row 15002: unknown hub
  const text = `${SHIPMENT_HEADER}\n${lines.join('\n')}\n`;
  expect(text.length).toBeGreaterThan(1_048_576);

  await dropFile(page, 'shipment.csv', text);
  const selected = page.getByRole('group', { name: 'Selected file' });
  await selected.getByText('shipment.csv').waitFor();
  await selected.getByText(/\d+(\.\d+)? KB/).waitFor();

  let chunks = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/veritas/api/upload/')) chunks++;
  });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('status').filter({ hasText: 'Processed' });
  await panel.waitFor();
  await page.getByText('Uploading... 100%').waitFor();
  expect(chunks).toBe(Math.ceil(Buffer.byteLength(text) / 1_048_576));
  expect(chunks).toBeGreaterThan(1);
  expect(await panel.locator('dd').allInnerTexts()).toEqual([String(VALID_ROWS), '2']);
  await panel
    .getByRole('region', { name: 'Duplicates' })
    .getByText(`Row ${VALID_ROWS + 1}: ${ids[0]}`)
    .waitFor();
  await panel
    .getByRole('region', { name: 'Errors' })
    .getByText(new RegExp(`^Row ${VALID_ROWS + 2}: .*NO-SUCH-HUB`))
    .waitFor();
  // docs/screens.md#upload-csv-file: the result clears after 5 s.
  await panel.waitFor({ state: 'detached', timeout: 10_000 });

  const stored = (await statusRecords()).filter((r) => r.id.startsWith(prefix));
  expect(stored).toHaveLength(VALID_ROWS);
});

test('a file that is not a CSV is rejected with its message and nothing to upload', async () => {
  await signIn(page, DEMO.admin);
  await page.goto('/Upload');
  await dropFile(page, 'photo.png', 'not a csv', 'image/png');
  await page.getByRole('alert').getByText('Invalid file type: please choose a .csv file').waitFor();
  expect(await page.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
});

test("the report of today holds exactly today's records of api/get_status/, saved as report_{start}_{end}.csv", async () => {
  await signIn(page, DEMO.executive);
  await page.goto('/Download');
  const form = page.getByRole('form', { name: 'Download Data' });
  const today = localDate(new Date());
  const button = form.getByRole('button', { name: 'Download CSV' });

  const yesterday = localDate(new Date(Date.now() - 24 * 3600 * 1000));
  await form.getByLabel('Start Date').fill(today);
  await form.getByLabel('End Date').fill(yesterday);
  await form.getByText('End date cannot be before start date').waitFor();
  expect(await button.isDisabled()).toBe(true);

  await form.getByLabel('End Date').fill(today);
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe(`report_${today}_${today}.csv`);
  const report = fs.readFileSync((await download.path())!, 'utf8');
  const [header, ...rows] = report
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(header).toBe(
    'tracking_id,hub_code,created_date,device_type,expected_brand,expected_model,is_blindpick,status,submitted_by,submit_time,submitted_device,submitted_manufacturer,device_result,verified_by,verify_time,verified_by_rc,verify_time_rc',
  );

  const expected = (await statusRecords())
    .filter((r) => r.created !== null && localDate(new Date(r.created)) === today)
    .map((r) => r.id);
  expect(expected.length).toBeGreaterThan(0);
  expect(rows.map((row) => row.split(',')[0]).sort()).toEqual(expected.sort());
});

test("the Data menu's Download APK saves the server's mobile app package as veritas_app.apk", async () => {
  await signIn(page, DEMO.admin);
  await page.getByRole('button', { name: 'Data' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Download APK' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('veritas_app.apk');
  expect(fs.readFileSync((await download.path())!, 'utf8')).toBe(APK_BYTES);
});
