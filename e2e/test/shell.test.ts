// docs/screens.md#top-bar and docs/screens.md#protected-layout, docs/sessions.md#refresh-in-the-console,
// docs/architecture.md#loading-error-card-and-retry — in a real browser.
import { BrowserContext, Page } from 'playwright-core';
import { DEMO, freshPagePerTest, signIn } from '../support/browser';
import { FIRST_LOAD_BUDGET_KB, loginFirstLoad, totalSize } from '../support/first-load';

const tab = freshPagePerTest();
let page: Page;
let context: BrowserContext;
beforeEach(() => {
  page = tab.page();
  context = tab.context();
});

async function menuItems(menu: string): Promise<string[]> {
  await page.getByRole('button', { name: menu }).click();
  const items = await page.getByRole('menu', { name: menu }).getByRole('menuitem').allInnerTexts();
  await page.keyboard.press('Escape');
  return items.map((t) => t.trim());
}

test('menus: admin sees every Data item and every User Management item', async () => {
  await signIn(page, DEMO.admin);
  expect(await menuItems('Data')).toEqual([
    'Upload',
    'Download APK',
    'White Label',
    'Download',
    'Stats',
    'Cases',
    'Integrations',
  ]);
  expect(await menuItems('User Management')).toEqual(['Create User', 'Deactivate User', 'Audit Log']);
});

test('menus: executive sees only Download, Stats and Cases in Data; admin-only routes are not reachable by URL', async () => {
  await signIn(page, DEMO.executive);
  expect(await menuItems('Data')).toEqual(['Download', 'Stats', 'Cases']);
  expect(await menuItems('User Management')).toEqual(['Create User', 'Deactivate User']);
  for (const route of ['/Upload', '/WhiteLabel', '/AuditLog', '/Integrations']) {
    await page.goto(route);
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).not.toBe(route);
  }
});

test("first load: the login page loads at most 150 KB gzip of scripts, and not the layout's styles", async () => {
  const loaded = await loginFirstLoad(page, '/login');
  expect(totalSize(loaded).gzip / 1024).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB);
  // shell.css comes with the signed-in routes (docs/architecture.md#the-shells-first-load).
  const styles = await page.locator('style').allTextContents();
  expect(styles.some((css) => css.includes('.shell-status'))).toBe(true);
  expect(styles.some((css) => css.includes('.shell-topbar'))).toBe(false);
});

test("icon: the page names the console's icon, /favicon.svg, and no load asks for a file the server lacks", async () => {
  const missing: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('404')) missing.push(message.text());
  });
  await page.goto('/login');
  await page.getByLabel('Username').waitFor();
  expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
  const icon = await page.request.get('/favicon.svg');
  expect([icon.status(), icon.headers()['content-type']]).toEqual([200, 'image/svg+xml']);
  await signIn(page, DEMO.admin);
  await page.waitForLoadState('networkidle');
  expect(missing).toEqual([]);
});

test('layout: top bar shows the user name, role label and footer', async () => {
  await signIn(page, DEMO.incharge);
  const banner = page.getByRole('banner');
  await banner.getByText(DEMO.incharge).waitFor();
  await banner.getByText('incharge', { exact: true }).waitFor();
  await page.getByText('© 2025 Designed and developed by Automation COE, OneDesign').waitFor();
});

test('logout: the logout icon ends the session and goes to /login; protected routes then redirect', async () => {
  await signIn(page, DEMO.admin);
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
  await page.goto('/ListDevices');
  await page.waitForURL('**/login');
});

test('refresh: with the access cookie gone, one refresh renews the session and the request is replayed', async () => {
  await signIn(page, DEMO.admin);
  const cookies = await context.cookies();
  const access = cookies.find((c) => c.httpOnly && /access/i.test(c.name));
  expect(access).toBeDefined();
  await context.clearCookies({ name: access!.name });

  const calls: string[] = [];
  page.on('response', (res) => {
    const path = new URL(res.url()).pathname;
    if (path.startsWith('/veritas/')) calls.push(`${res.status()} ${path}`);
  });
  await page.getByRole('button', { name: 'Data' }).click();
  await page.getByRole('menuitem', { name: 'Stats' }).click();
  await page.getByRole('heading', { name: /Device Pick List/i }).waitFor();
  await page.locator('[data-testid="device-row"]').first().waitFor();

  expect(calls.filter((c) => c.endsWith('/veritas/user/refresh/'))).toEqual(['200 /veritas/user/refresh/']);
  // The pick list's first page (docs/architecture.md#server-features): refused, then replayed.
  expect(calls).toContain('401 /veritas/api/devices/');
  expect(calls).toContain('200 /veritas/api/devices/');
});

test('deep link: reloading /ListDevices keeps the user on that page', async () => {
  await signIn(page, DEMO.admin);
  await page.goto('/ListDevices');
  await page.locator('[data-testid="device-row"]').first().waitFor();
  await page.reload();
  await page.locator('[data-testid="device-row"]').first().waitFor();
  expect(new URL(page.url()).pathname).toBe('/ListDevices');
});

/** Answers the first request matching `pattern` with 503, lets the others through; records every URL. */
async function failFirst(pattern: string): Promise<string[]> {
  const seen: string[] = [];
  await page.route(pattern, (route) => {
    seen.push(route.request().url());
    return seen.length === 1 ? route.fulfill({ status: 503, body: 'unavailable' }) : route.continue();
  });
  return seen;
}

// The devices remote's files only: the page's other remotes (the cases remote's extensions) load too.
test.each([
  ['manifest', '**/remotes/devices/**/mf-manifest.json'],
  ['entry script', '**/remotes/devices/**/remoteEntry.*.js'],
])(
  'a remote whose %s answers 503 once is loaded again on its own: the page shows, no error card',
  async (_what, pattern) => {
    await signIn(page, DEMO.admin);
    const seen = await failFirst(pattern);
    const errors: string[] = [];
    page.on(
      'console',
      (message) =>
        message.type() === 'error' && message.text().includes('could not be loaded') && errors.push(message.text()),
    );
    await page.goto('/ListDevices');
    await page.locator('[data-testid="device-row"]').first().waitFor();
    expect(seen).toHaveLength(2);
    expect(new Set(seen).size).toBe(1);
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(errors).toEqual([]);
  },
);

test('a remote whose files never answer: after 20 s the error card shows, the shell keeps working, and Retry loads the page (docs/errors.md#session-and-top-bar)', async () => {
  await signIn(page, DEMO.admin);
  // The devices remote's server takes each request and never answers.
  await page.route('**/remotes/devices/**', () => {});
  await page.goto('/ListDevices');
  await page
    .getByText(/^Loading/)
    .first()
    .waitFor();
  const card = page.getByRole('alert').filter({ hasText: 'could not be loaded' });
  await card.waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'User Management' }).click();
  await page.getByRole('menuitem', { name: 'Create User' }).waitFor();
  await page.keyboard.press('Escape');

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await card.getByRole('button', { name: 'Retry' }).click();
  await page.locator('[data-testid="device-row"]').first().waitFor();
}, 90_000);

test('remote down: a remote whose manifest fails shows an error card with Retry, and the shell keeps working', async () => {
  // Every remote's manifest fails to load (the shell itself fetches none).
  await page.route('**/mf-manifest.json', (route) => route.abort('connectionrefused'));
  await signIn(page, DEMO.admin);
  await page.goto('/ListDevices');
  const card = page.getByRole('alert');
  await card.getByRole('button', { name: 'Retry' }).waitFor();

  // The rest of the console still works: menus open, other routes render, Retry recovers.
  await page.unrouteAll();
  await card.getByRole('button', { name: 'Retry' }).click();
  await page.locator('[data-testid="device-row"]').first().waitFor();
  await page.getByRole('button', { name: 'User Management' }).click();
  await page.getByRole('menuitem', { name: 'Create User' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
});
