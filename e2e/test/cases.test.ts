// The Cases remote (mfe-cases) in the real shell, against the real server: a doorstep scan that
// flags a device opens a case that shows live in the queue; a case is worked on its page (Take, a
// note, a photo, Resolve); its extensions show in Device Details, on the Dashboard and in the top
// bar; a view shared with a role; a bulk resolve; axe on both pages; what an executive may not see.
// Each test makes its own hub (group), operator and shipment, so the demo's cases never get in
// the way of what it counts. Set CASES_SHOTS=<folder> to save screenshots of the pages there.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { request, type APIRequestContext, type Page } from 'playwright-core';
import { expectNoSeriousViolations } from '../support/axe';
import { DEMO, DEMO_PASSWORD, baseUrl, freshPagePerTest, markDocument, signIn, stillMarked } from '../support/browser';
import { pngBytes } from '../support/images';
import { SHIPMENT_HEADER } from '../support/upload';
import { eventually } from '../../test-support/eventually';

const tab = freshPagePerTest();
let page: Page;
beforeEach(() => {
  page = tab.page();
});

const PASSWORD = 'Str0ng#pass';
/** The model the shipments expect; the scans find another: E007. */
const EXPECTED_MODEL = 'Pixel 8';
const SCANNED_MODEL = 'Galaxy S23';

interface CaseSummary {
  id: number;
  tracking_id: string;
  reason: string;
  state: string;
  disposition: string | null;
  queue: string;
  assignee: string | null;
  version: number;
}

// ---------------------------------------------------------------------------------------------
// The server as the admin (outside the browser) and as the mobile app.

let admin: { api: APIRequestContext; xsrf(): Promise<string> };

async function adminApi(): Promise<typeof admin> {
  const api = await request.newContext({ baseURL: baseUrl() });
  await api.get('/veritas/user/is_LoggedIn/');
  const xsrf = async () => (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
  const login = await api.post('/veritas/user/login/', {
    data: { username: DEMO.admin, password: DEMO_PASSWORD },
    headers: { 'x-xsrf-token': await xsrf() },
  });
  expect(login.status()).toBe(200);
  return { api, xsrf };
}

beforeAll(async () => {
  admin = await adminApi();
});
afterAll(async () => {
  await admin.api.dispose();
});

async function adminPost<T>(url: string, data: unknown, expected = [200, 201, 202]): Promise<T> {
  const answer = await admin.api.post(url, { data, headers: { 'x-xsrf-token': await admin.xsrf() } });
  if (!expected.includes(answer.status()))
    throw new Error(`${url} answered ${answer.status()}: ${await answer.text()}`);
  return (await answer.json()) as T;
}

async function adminGet<T>(url: string): Promise<T> {
  const answer = await admin.api.get(url);
  if (!answer.ok()) throw new Error(`${url} answered ${answer.status()}: ${await answer.text()}`);
  return (await answer.json()) as T;
}

let made = 0;
/** A name no other run or test has used: letters and digits. */
const unique = (start: string) =>
  `${start}${Date.now().toString(36)}${(made++).toString(36)}${crypto.randomBytes(2).toString('hex')}`.toUpperCase();

interface Hub {
  code: string;
  operator: string;
}

/** A new hub with its own operator (the mobile app's user). */
async function newHub(): Promise<Hub> {
  const code = unique('E2EC');
  await adminPost('/veritas/user/create_group/', { code, organization: 'hub', name: `Cases e2e ${code}` });
  const operator = `e2e_wm_${code.toLowerCase()}`;
  await newUser(operator, 'operators', code);
  return { code, operator };
}

async function newUser(username: string, role: string, group: string): Promise<void> {
  await adminPost('/veritas/user/create/', {
    username,
    email: `${username}@example.com`,
    password: PASSWORD,
    role,
    group,
    organization: 'hub',
  });
}

/** Uploads a shipment of `count` records of `hub` expecting EXPECTED_MODEL (no brand); answers their tracking IDs. */
async function shipment(hub: Hub, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${hub.code}-${i + 1}`);
  const csv = `${SHIPMENT_HEADER}\n${ids.map((id) => `${id},${hub.code},mobile,,${EXPECTED_MODEL},false,,,`).join('\n')}\n`;
  const answer = await admin.api.post('/veritas/api/upload/', {
    headers: { 'x-xsrf-token': await admin.xsrf() },
    multipart: {
      upload_id: crypto.randomUUID(),
      chunk_index: '0',
      total_chunks: '1',
      file: { name: `${hub.code}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) },
    },
  });
  if (!answer.ok()) throw new Error(`upload answered ${answer.status()}: ${await answer.text()}`);
  return ids;
}

/** The mobile app's doorstep submission of another model than the shipment's: E007, a case opens. */
async function scanWrongModel(hub: Hub, trackingId: string): Promise<void> {
  const login = await fetch(new URL('veritas/app/login/', baseUrl()), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: hub.operator, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  // A locally administered MAC: no maker's prefix, never another record's.
  const mac = `02${crypto.randomBytes(5).toString('hex')}`.toUpperCase();
  const submit = await fetch(new URL('veritas/app/scan/submit/', baseUrl()), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ tracking_id: trackingId, mac_address: mac, model: SCANNED_MODEL, hardware_id: `HW-${mac}` }),
  });
  const body = (await submit.json()) as { result?: string };
  expect({ status: submit.status, result: body.result }).toEqual({ status: 200, result: 'E007' });
}

async function casesOf(trackingId: string): Promise<CaseSummary[]> {
  return (
    await adminGet<{ cases: CaseSummary[] }>(`/veritas/api/cases/of/?tracking_id=${encodeURIComponent(trackingId)}`)
  ).cases;
}

/** Flags `trackingId` at the doorstep and answers the case the scan opened. */
async function flagged(hub: Hub, trackingId: string): Promise<CaseSummary> {
  await scanWrongModel(hub, trackingId);
  const [opened] = await casesOf(trackingId);
  expect(opened).toMatchObject({ tracking_id: trackingId, reason: 'E007', state: 'open', queue: hub.code });
  return opened!;
}

// ---------------------------------------------------------------------------------------------
// The browser.

const shots = process.env.CASES_SHOTS;
async function screenshot(name: string): Promise<void> {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

const rows = () => page.locator('tr.cq-row');
const row = (trackingId: string) => rows().filter({ hasText: trackingId });
const indicator = (state: string) => page.locator(`[data-testid="live-indicator"][data-state="${state}"]`);

async function openQueue(query: string): Promise<void> {
  await page.goto(`/Cases${query}`);
  await page.getByRole('heading', { level: 1, name: 'Cases' }).waitFor();
  await page.getByRole('table', { name: 'Cases by due time' }).waitFor();
}

async function openCasePage(id: number): Promise<void> {
  await page.goto(`/Case?id=${id}`);
  await page.getByTestId('case').waitFor();
}

/** A toast of the console saying `text`. */
const toast = (text: string) => page.getByRole('status').filter({ hasText: text });

/** A fact of the Case page's facts, e.g. State. */
const fact = (term: string) =>
  page.locator('.cp-fact', { has: page.locator('dt', { hasText: new RegExp(`^${term}$`) }) }).locator('dd');

/** The kinds of the timeline's entries, oldest first. */
const timelineKinds = () =>
  page.locator('.cp-timeline__entry').evaluateAll((items) => items.map((li) => li.getAttribute('data-kind')));

// ---------------------------------------------------------------------------------------------

test('a flagging doorstep scan opens a case that appears live in an open queue, without reload', async () => {
  const hub = await newHub();
  const [trackingId] = await shipment(hub, 1);
  await signIn(page, DEMO.admin);
  await openQueue(`?queue=${hub.code}`);
  await page.getByText('No cases match these filters.').waitFor();
  // The count is a call of its own, which may answer after the rows: awaited, not read at once.
  await page.waitForFunction(() => document.querySelector('.cq-count')?.textContent === '0 cases');
  await indicator('connected').waitFor();
  await markDocument(page);

  await scanWrongModel(hub, trackingId!);

  await row(trackingId!).waitFor({ timeout: 10_000 });
  const [opened] = await casesOf(trackingId!);
  const cells = (await row(trackingId!).locator('th, td').allInnerTexts()).map((text) => text.trim());
  expect(cells).toEqual(
    expect.arrayContaining([
      `#${opened!.id}`,
      trackingId,
      expect.stringMatching(/^E007 /),
      'Open',
      hub.code,
      'Unassigned',
    ]),
  );
  await page.waitForFunction(() => document.querySelector('.cq-count')?.textContent === '1 case');
  expect(await stillMarked(page)).toBe(true);
});

test('a case is taken, noted, given a photo and resolved as Quarantined on its page; the timeline shows each step', async () => {
  const hub = await newHub();
  const [trackingId] = await shipment(hub, 1);
  const opened = await flagged(hub, trackingId!);
  await signIn(page, DEMO.admin);
  await openQueue(`?queue=${hub.code}`);
  await row(trackingId!)
    .getByRole('link', { name: `#${opened.id}` })
    .click();
  await page.waitForURL(`**/Case?id=${opened.id}`);
  await page.getByRole('heading', { level: 1, name: `Case #${opened.id}` }).waitFor();
  await page.getByTestId('case').waitFor();
  await expect(fact('State').textContent()).resolves.toBe('Open');
  await expect(fact('Scanned model').textContent()).resolves.toBe(SCANNED_MODEL);
  await expect(fact('Model').textContent()).resolves.toBe(EXPECTED_MODEL);
  expect(await timelineKinds()).toEqual(['opened']);
  await screenshot('case-open');

  const actions = page.getByRole('region', { name: 'Actions' });
  await actions.getByRole('button', { name: 'Take', exact: true }).click();
  await toast(`Case #${opened.id} assigned to you`).waitFor();
  await fact('Assignee').filter({ hasText: DEMO.admin }).waitFor();
  await actions.getByRole('button', { name: 'Take', exact: true }).waitFor({ state: 'detached' });

  const note = 'Box resealed; the label under the sticker names another model.';
  const noteForm = page.getByRole('form', { name: 'Add a note' });
  await noteForm.getByLabel('Add note').fill(note);
  await noteForm.getByRole('button', { name: 'Add note' }).click();
  await page.locator('.cp-timeline__entry[data-kind="note"]').filter({ hasText: note }).waitFor();
  await expect(noteForm.getByLabel('Add note').inputValue()).resolves.toBe('');

  const evidence = page.getByRole('region', { name: 'Evidence' });
  await evidence.getByText('No photos yet.').waitFor();
  await page.getByTestId('photo-input').setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: pngBytes() });
  const photo = evidence.getByRole('img', { name: `Photo 1 of case #${opened.id}` });
  await photo.waitFor();
  await page.waitForFunction((alt) => {
    const img = document.querySelector<HTMLImageElement>(`img[alt="${alt}"]`);
    return img !== null && img.complete && img.naturalWidth === 16;
  }, `Photo 1 of case #${opened.id}`);
  await page.locator('.cp-timeline__entry[data-kind="photo"]').waitFor();

  await actions.getByRole('button', { name: 'Resolve…' }).click();
  const resolveForm = page.getByRole('form', { name: 'Resolve the case' });
  await resolveForm.getByLabel('Disposition').selectOption({ label: 'Quarantined' });
  const resolution = 'Quarantined pending the vendor’s answer.';
  await resolveForm.getByLabel('Resolution note').fill(resolution);
  await resolveForm.getByRole('button', { name: 'Resolve', exact: true }).click();
  await toast(`Case #${opened.id} resolved`).waitFor();
  await fact('State')
    .filter({ hasText: /^Resolved · Quarantined$/ })
    .waitFor();
  await fact('Resolved').waitFor();
  await actions.getByRole('button', { name: 'Reopen…' }).waitFor();

  expect(await timelineKinds()).toEqual(['opened', 'assigned', 'note', 'photo', 'resolved']);
  const entries = page.locator('.cp-timeline__entry');
  await expect(entries.nth(1).innerText()).resolves.toContain(`Assigned the case to ${DEMO.admin}`);
  await expect(entries.nth(2).innerText()).resolves.toContain(note);
  await expect(entries.nth(3).innerText()).resolves.toContain('Added a photo');
  await expect(entries.nth(4).innerText()).resolves.toContain('Resolved the case: Quarantined');
  await expect(entries.nth(4).innerText()).resolves.toContain(resolution);
  for (let i = 1; i < 5; i++) await expect(entries.nth(i).innerText()).resolves.toContain(DEMO.admin);
  await screenshot('case-resolved');

  const [after] = await casesOf(trackingId!);
  expect(after).toMatchObject({ state: 'resolved', disposition: 'quarantined', assignee: DEMO.admin });
});

test('Device Details of a flagged tracking ID lists its case; the Dashboard shows the Open and Overdue cases tiles', async () => {
  const hub = await newHub();
  const [trackingId] = await shipment(hub, 1);
  const opened = await flagged(hub, trackingId!);
  await signIn(page, DEMO.admin);

  await page.goto(`/ListDevices?q=${encodeURIComponent(trackingId!)}`);
  const deviceRow = page.getByTestId('device-row').filter({ hasText: trackingId! });
  await deviceRow.getByRole('button', { name: 'See Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Device Details' });
  const section = dialog.getByRole('region', { name: 'Cases' });
  await section.waitFor();
  const item = section.getByRole('listitem').filter({ has: page.getByRole('link', { name: `#${opened.id}` }) });
  await expect(item.innerText()).resolves.toMatch(/E007 · .*Open/s);
  await item.getByRole('link', { name: `#${opened.id}` }).click();
  await page.waitForURL(`**/Case?id=${opened.id}`);
  await page.getByTestId('case').waitFor();

  const totals = await adminGet<{ open: number; overdue: number }>('/veritas/api/cases/summary/?hub=all');
  await page.goto('/Dashboard');
  const open = page.getByRole('link', { name: /Open cases/ });
  const overdue = page.getByRole('link', { name: /Overdue cases/ });
  await open.waitFor();
  await overdue.waitFor();
  const value = async (testId: string) => Number((await page.getByTestId(testId).textContent())!.trim());
  expect(await value('tile-open-cases')).toBeGreaterThanOrEqual(1);
  // The Dashboard opens on every hub for an admin: the totals of all queues.
  expect(await value('tile-open-cases')).toBe(totals.open);
  expect(await value('tile-overdue-cases')).toBe(totals.overdue);
  expect(await open.getAttribute('href')).toBe('/Cases');
  expect(await overdue.getAttribute('href')).toBe('/Cases?overdue=1');
  await overdue.click();
  await page.waitForURL('**/Cases?overdue=1');
  await expect(page.getByRole('checkbox', { name: 'Overdue only' }).isChecked()).resolves.toBe(true);
});

test('a view admin_demo saves in the browser, shared with central_ops, is in central_demo’s Views and applies its filters', async () => {
  const hub = await newHub();
  const ids = await shipment(hub, 2);
  for (const id of ids) await flagged(hub, id);
  const name = `E2E view ${hub.code}`;

  await signIn(page, DEMO.admin);
  await openQueue('');
  await page.getByLabel('Queue', { exact: true }).fill(hub.code);
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL((url) => url.searchParams.get('queue') === hub.code);
  await page.getByRole('combobox', { name: 'Reason' }).click();
  await page.getByRole('option', { name: /^E007 / }).click();
  await page.waitForURL((url) => url.searchParams.get('reason') === 'E007');
  await page.waitForFunction(() => document.querySelector('.cq-count')?.textContent === '2 cases');

  await page.getByRole('button', { name: 'Save view' }).click();
  const form = page.getByRole('form', { name: 'Save view' });
  await form.getByLabel('Name').fill(name);
  await form.getByRole('combobox', { name: 'Share with' }).click();
  await page.getByRole('option', { name: 'central_ops', exact: true }).click();
  await screenshot('cases-save-view');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await form.waitFor({ state: 'detached' });
  await toast(`View “${name}” saved.`).waitFor();
  // The view saved is the one chosen, once the list of views is read again.
  const views = page.getByRole('combobox', { name: 'Views' });
  await eventually(async () => (await views.inputValue()) === `${name} (shared with central_ops)`, {
    withinMs: 10_000,
    everyMs: 100,
  });
  await tab.context().clearCookies();

  await signIn(page, DEMO.centralOps);
  await openQueue('');
  await page.getByRole('combobox', { name: 'Views' }).click();
  // The demo's own shared view is there too.
  await page.getByRole('option', { name: 'Overdue fraud (shared with central_ops)' }).waitFor();
  await page.getByRole('option', { name: `${name} (shared with central_ops)` }).click();
  await page.waitForURL(
    (url) => url.searchParams.get('queue') === hub.code && url.searchParams.get('reason') === 'E007',
  );
  await page.waitForFunction(() => document.querySelector('.cq-count')?.textContent === '2 cases');
  for (const id of ids) await row(id).waitFor();
  expect(await rows().count()).toBe(2);
  await expect(page.getByLabel('Queue', { exact: true }).inputValue()).resolves.toBe(hub.code);
  await expect(page.getByRole('combobox', { name: 'Reason' }).inputValue()).resolves.toMatch(/^E007 /);
  // Not theirs: central_demo may not delete it.
  expect(await page.getByRole('button', { name: /Delete view/ }).count()).toBe(0);
});

test('a bulk resolve of all cases matching a filter shows its progress and resolves every one', async () => {
  const hub = await newHub();
  const ids = await shipment(hub, 3);
  for (const id of ids) await flagged(hub, id);

  await signIn(page, DEMO.admin);
  await openQueue(`?queue=${hub.code}`);
  await page.waitForFunction(() => document.querySelector('.cq-count')?.textContent === '3 cases');
  await rows().first().getByRole('checkbox').check();
  const bulk = page.getByRole('region', { name: 'Bulk actions' });
  await bulk.getByText('1 selected').waitFor();
  await bulk.getByRole('button', { name: 'Select all 3 matching' }).click();
  await bulk.getByText('All 3 cases matching selected').waitFor();
  for (const box of await rows().getByRole('checkbox').all()) expect(await box.isChecked()).toBe(true);

  await bulk.getByRole('button', { name: 'Resolve…' }).click();
  const form = page.getByRole('form', { name: 'Resolve cases' });
  // Without a disposition and a note, nothing starts.
  await form.getByRole('button', { name: 'Start' }).click();
  await form.getByText('Choose a disposition.').waitFor();
  await form.getByText('A resolution needs a note.').waitFor();
  await form.getByRole('combobox', { name: 'Disposition' }).click();
  await page.getByRole('option', { name: 'Returned to vendor', exact: true }).click();
  await form.getByLabel('Note').fill('Vendor recall: every device of this hub goes back.');
  await screenshot('cases-bulk-form');
  await form.getByRole('button', { name: 'Start' }).click();

  const job = page.getByRole('region', { name: 'Bulk job' });
  await job.waitFor();
  await job.getByRole('progressbar').waitFor();
  await job.getByText('Resolving cases: done').waitFor({ timeout: 20_000 });
  await expect(job.getByRole('status').textContent()).resolves.toBe('3 of 3 done (0 skipped)');
  await expect(job.getByRole('progressbar').getAttribute('value')).resolves.toBe('3');
  await screenshot('cases-bulk-done');
  // The queue (active cases) is read again: none left.
  await page.getByText('No cases match these filters.').waitFor();
  await job.getByRole('button', { name: 'Close' }).click();
  await job.waitFor({ state: 'detached' });

  for (const id of ids)
    expect((await casesOf(id))[0]).toMatchObject({ state: 'resolved', disposition: 'returned_to_vendor' });
  await openQueue(`?queue=${hub.code}&state=resolved`);
  await page.waitForFunction(() => document.querySelector('.cq-count')?.textContent === '3 cases');
  for (const id of ids) await row(id).filter({ hasText: 'Resolved · Returned to vendor' }).waitFor();
});

test('the top bar’s My cases badge appears, live, once the signed-in user is assigned an open case', async () => {
  const hub = await newHub();
  const incharge = `e2e_ic_${hub.code.toLowerCase()}`;
  await newUser(incharge, 'incharge', hub.code);
  const [trackingId] = await shipment(hub, 1);
  const opened = await flagged(hub, trackingId!);

  await signIn(page, incharge, PASSWORD);
  await page.goto('/Cases');
  await indicator('connected').waitFor();
  const badge = page.getByRole('link', { name: /^My cases/ });
  expect(await badge.count()).toBe(0);

  await adminPost(`/veritas/api/cases/${opened.id}/assign/`, { assignee: incharge, version: opened.version });

  await badge.waitFor({ timeout: 10_000 });
  expect(await page.getByRole('link', { name: 'My cases: 1 open' }).count()).toBe(1);
  await screenshot('top-bar-my-cases');
  await badge.click();
  await page.waitForURL('**/Cases?assignee=me');
  await row(trackingId!).waitFor();
  await page.waitForFunction(() => document.querySelector('.cq-count')?.textContent === '1 case');
});

test('axe finds nothing serious or critical on /Cases and /Case?id=', async () => {
  const hub = await newHub();
  const ids = await shipment(hub, 2);
  const opened = await flagged(hub, ids[0]!);
  await flagged(hub, ids[1]!);
  await signIn(page, DEMO.admin);
  // A photo and a note, so the evidence and the timeline have content.
  const photo = await admin.api.post(`/veritas/api/cases/${opened.id}/photos/`, {
    headers: { 'x-xsrf-token': await admin.xsrf(), 'content-type': 'image/png' },
    data: pngBytes(),
  });
  expect(photo.status()).toBe(201);
  await adminPost(`/veritas/api/cases/${opened.id}/notes/`, { note: 'Checked against the invoice.' });

  await openQueue('');
  await rows().first().waitFor();
  await screenshot('cases-queue');
  await expectNoSeriousViolations(page, '/Cases');

  await openQueue(`?queue=${hub.code}`);
  await page.waitForFunction(() => document.querySelector('.cq-count')?.textContent === '2 cases');
  await rows().first().getByRole('checkbox').check();
  await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Resolve…' }).click();
  await page.getByRole('button', { name: 'Save view' }).click();
  await page.getByRole('form', { name: 'Save view' }).waitFor();
  await screenshot('cases-queue-selected');
  await expectNoSeriousViolations(page, '/Cases with a selection, the bulk Resolve form and the Save view form');

  await openCasePage(opened.id);
  await page.getByRole('img', { name: `Photo 1 of case #${opened.id}` }).waitFor();
  await screenshot('case-page');
  await expectNoSeriousViolations(page, `/Case?id=${opened.id}`);
  await page.getByRole('region', { name: 'Actions' }).getByRole('button', { name: 'Resolve…' }).click();
  await page.getByRole('form', { name: 'Resolve the case' }).waitFor();
  await expectNoSeriousViolations(page, `/Case?id=${opened.id} with the Resolve form`);

  await page.setViewportSize({ width: 375, height: 812 });
  await openCasePage(opened.id);
  await screenshot('case-page-phone');
  await expectNoSeriousViolations(page, `/Case?id=${opened.id} on a phone`);
  await openQueue(`?queue=${hub.code}`);
  await rows().first().waitFor();
  await screenshot('cases-queue-phone');
  await expectNoSeriousViolations(page, '/Cases on a phone');
});

test('an executive cannot open another hub’s case (not found) and is shown no bulk controls', async () => {
  const hub = await newHub();
  const executive = `e2e_ex_${hub.code.toLowerCase()}`;
  await newUser(executive, 'executive', hub.code);
  const [trackingId] = await shipment(hub, 1);
  const opened = await flagged(hub, trackingId!);

  // exec_del works for DEL02: a case of this hub is not theirs to see.
  await signIn(page, 'exec_del');
  await page.goto(`/Case?id=${opened.id}`);
  const alert = page.getByRole('alert').filter({ hasText: `Case ${opened.id} not found.` });
  await alert.waitFor();
  await alert.getByRole('link', { name: 'Back to all cases' }).waitFor();
  expect(await page.getByTestId('case').count()).toBe(0);
  expect(await page.getByText(trackingId!).count()).toBe(0);
  await screenshot('case-not-found');
  await openQueue(`?queue=${hub.code}&state=all`);
  await page.getByText('No cases match these filters.').waitFor();
  await tab.context().clearCookies();

  // The hub's own executive reads the case and comments, but works nothing and runs no bulk job.
  await signIn(page, executive, PASSWORD);
  await openQueue('');
  await row(trackingId!).waitFor();
  expect(await page.getByRole('checkbox', { name: 'Select every case shown' }).count()).toBe(0);
  expect(await page.getByRole('checkbox', { name: /^Select case #/ }).count()).toBe(0);
  expect(await page.getByRole('region', { name: 'Bulk actions' }).count()).toBe(0);
  await screenshot('cases-executive');
  await openCasePage(opened.id);
  const actions = page.getByRole('region', { name: 'Actions' });
  await actions.getByRole('form', { name: 'Add a note' }).waitFor();
  for (const name of ['Take', 'Assign to…', 'Start review', 'Resolve…'])
    expect(await actions.getByRole('button', { name, exact: true }).count()).toBe(0);
});
