// docs/screens.md#integrations, docs/integrations.md — in a real browser against the real server:
// an admin opens Integrations from the Data menu, creates an API key of one scope and sees its
// secret once; the order system's call with that key lists the cases, one outside its scope is
// refused; the table shows the key's last use; Revoke (confirmed) ends the key at once. An
// executive has no Integrations entry and the server refuses the page.
import type { Page } from 'playwright-core';
import { DEMO, baseUrl, freshPagePerTest, signIn } from '../support/browser';

const tab = freshPagePerTest();
let page: Page;
beforeEach(() => {
  page = tab.page();
});

const callWithKey = (secret: string, path: string) =>
  fetch(new URL(`/veritas/api/v1/${path}`, baseUrl()), { headers: { authorization: `Bearer ${secret}` } });

test('admin: a key created in the browser calls the API within its scope, until revoked', async () => {
  await signIn(page, DEMO.admin);
  await page.getByRole('button', { name: 'Data' }).click();
  await page.getByRole('menuitem', { name: 'Integrations' }).click();
  await page.waitForURL('**/Integrations');
  await page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();

  const label = `crm ${Date.now()}`;
  const form = page.getByRole('form', { name: 'Create an API key' });
  await form.getByLabel('Label').fill(label);
  await form.getByRole('checkbox', { name: /Read cases/ }).check();
  await form.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('region', { name: `Secret of the key ${label}` });
  await shown.getByText('Copy this secret now: it is shown once.').waitFor();
  const secret = await shown.getByRole('textbox').inputValue();
  expect(secret).toMatch(/^vrt_[A-Za-z0-9_-]{43}$/);

  const listed = await callWithKey(secret, 'cases/?limit=5');
  expect(listed.status).toBe(200);
  expect(((await listed.json()) as { cases: unknown[] }).cases.length).toBeGreaterThan(0);

  // Done: the secret is gone for good; the list read again shows the key, and its use.
  await shown.getByRole('button', { name: 'Done' }).click();
  await shown.waitFor({ state: 'detached' });
  expect(await page.getByText(secret).count()).toBe(0);
  await page.reload();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label }) });
  await row.getByText('Read cases').waitFor();
  expect(await row.textContent()).not.toContain('Never');

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: `Revoke the key ${label}` }).click();
  await row.getByText(/^Revoked /).waitFor();
  const revoked = await callWithKey(secret, 'cases/');
  expect([revoked.status, ((await revoked.json()) as { detail: string }).detail]).toEqual([
    401,
    'The API key is revoked.',
  ]);
});

test("admin: every scope and event choice shows its code on the line under its name, whatever the name's length", async () => {
  await signIn(page, DEMO.admin);
  await page.goto('/Integrations');
  await page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
  const choices = await page.locator('label:has(> code)').evaluateAll((labels) =>
    labels.map((label) => {
      const box = label.querySelector('input')!.getBoundingClientRect();
      const code = label.querySelector('code')!;
      const { top, left } = code.getBoundingClientRect();
      return { code: code.textContent, under: top >= box.bottom, aligned: left > box.right };
    }),
  );
  // The four scopes and the eight event types.
  expect(choices).toHaveLength(12);
  for (const choice of choices) expect(choice).toEqual({ code: choice.code, under: true, aligned: true });
});

test('executive: no Integrations entry, and the page is refused', async () => {
  await signIn(page, DEMO.executive);
  await page.getByRole('button', { name: 'Data' }).click();
  await page.getByRole('menu', { name: 'Data' }).getByRole('menuitem').first().waitFor();
  expect(await page.getByRole('menuitem', { name: 'Integrations' }).count()).toBe(0);
  const answer = await page.goto('/Integrations');
  expect(answer!.status()).toBe(403);
});
