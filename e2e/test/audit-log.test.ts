// docs/screens.md#audit-log — in a real browser against the real server: an admin opens the Audit
// Log from the menu and finds their own sign-in; a filter goes into the URL and survives a reload;
// an entry's details expand; Export CSV downloads the filtered entries; a day typed from the
// keyboard applies once whole; a sign-in elsewhere shows up live, without reload, under a filter it
// matches.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { signedInApi } from '../support/api-session';
import { DEMO, baseUrl, freshPagePerTest, markDocument, signIn, stillMarked } from '../support/browser';

const tab = freshPagePerTest();
let page: Page;
beforeEach(() => {
  page = tab.page();
});

const SIGN_IN = 'session.sign-in';
const rows = () => page.locator('tr[data-seq]');
/** The Action column of every row shown. */
const actions = () => rows().locator('td:nth-child(4)').allTextContents();
const signInsOf = (username: string, role: string) =>
  rows()
    .filter({ hasText: SIGN_IN })
    .filter({ hasText: `${username} (${role})` });

async function openFromMenu(): Promise<void> {
  await page.getByRole('button', { name: 'User Management' }).click();
  await page.getByRole('menuitem', { name: 'Audit Log' }).click();
  await page.waitForURL('**/AuditLog');
  await page.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
}

test('admin: own sign-in listed; a filter in the URL survives a reload; details expand; the export is the filtered CSV', async () => {
  await signIn(page, DEMO.admin);
  await openFromMenu();
  await signInsOf(DEMO.admin, 'admin').first().waitFor();

  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: SIGN_IN, exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('action') === SIGN_IN);
  await page.waitForFunction(
    (action) => [...document.querySelectorAll('tr[data-seq] td:nth-child(4)')].every((td) => td.textContent === action),
    SIGN_IN,
  );
  expect(new Set(await actions())).toEqual(new Set([SIGN_IN]));

  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Action' }).inputValue()).resolves.toBe(SIGN_IN);
  await signInsOf(DEMO.admin, 'admin').first().waitFor();
  expect(new Set(await actions())).toEqual(new Set([SIGN_IN]));
  expect(new URL(page.url()).searchParams.get('action')).toBe(SIGN_IN);

  const toggle = signInsOf(DEMO.admin, 'admin')
    .first()
    .getByRole('button', { name: /^Details of entry \d+$/ });
  await toggle.click();
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  const details = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
  await details.waitFor();
  const fact = (term: string) =>
    details.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]').textContent();
  await expect(fact('Hash')).resolves.toMatch(/^[0-9a-f]{64}$/);
  await expect(fact('Actor')).resolves.toContain(`user ${DEMO.admin}, role admin`);

  const link = page.getByRole('link', { name: 'Export CSV' });
  const href = new URL((await link.getAttribute('href'))!, baseUrl());
  expect(href.pathname).toBe('/veritas/audit/export/');
  expect(Object.fromEntries(href.searchParams)).toEqual({ action: SIGN_IN });
  const answer = await page.request.get(href.toString());
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toMatch(/^text\/csv/);
  expect(answer.headers()['content-disposition']).toBe('attachment; filename="audit-log.csv"');

  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('audit-log.csv');
  const [header, ...lines] = fs
    .readFileSync((await download.path())!, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter(Boolean);
  expect(header).toBe(
    'Seq,Time,Actor kind,Actor,Actor id,Role,Address,Action,Target kind,Target id,Target,Outcome,Details,Hash',
  );
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toContain(`,${SIGN_IN},`);
  expect(lines.some((line) => line.includes(`,${DEMO.admin},`))).toBe(true);
});

test('a day typed from the keyboard applies once whole: the year is never taken as 2 on the way', async () => {
  await signIn(page, DEMO.admin);
  await openFromMenu();
  const from = page.getByLabel('From', { exact: true });
  // Focused, an en-US date field takes month, day and year in turn; digits move on from one to the next.
  await from.focus();
  await page.keyboard.type('12012026');
  await page.waitForURL((url) => url.searchParams.get('from') === '2026-12-01');
  await expect(from.inputValue()).resolves.toBe('2026-12-01');
  // Applied, the filter can be cleared (the form follows the address once it has rendered it).
  await page.locator('button:enabled', { hasText: 'Clear filters' }).waitFor();
});

test('a sign-in elsewhere appears live, on top and announced, without reload', async () => {
  await signIn(page, DEMO.admin);
  await page.goto(`/AuditLog?action=${SIGN_IN}`);
  await rows().first().waitFor();
  await page.locator('[data-testid="live-indicator"][data-state="connected"]').waitFor();
  await markDocument(page);
  const before = await signInsOf(DEMO.centralOps, 'central_ops').count();

  const elsewhere = await signedInApi(baseUrl(), DEMO.centralOps);
  try {
    await page.waitForFunction(
      ({ expected }) =>
        document.querySelectorAll('tr[data-seq]')[0]?.textContent?.includes(expected) === true &&
        /\d+ new entr(y|ies)/.test(document.querySelector('.al-fresh')?.textContent ?? ''),
      { expected: `${DEMO.centralOps} (central_ops)` },
      { timeout: 5000 },
    );
  } finally {
    await elsewhere.api.dispose();
  }
  expect(await signInsOf(DEMO.centralOps, 'central_ops').count()).toBe(before + 1);
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /new entr/ })
      .textContent(),
  ).resolves.toMatch(/^\d+ new entr/);
  expect(await stillMarked(page)).toBe(true);
});
