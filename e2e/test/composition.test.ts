// Run-time composition in the real console (docs/architecture.md#composition): a team creates a
// brand-new remote from the template in a folder of its own, publishes and promotes it with a
// token, and its page reaches the menus of the roles it names in an open console at the next
// navigation, with no shell release (the shell's files stay byte for byte the same). A canary of a
// version adding a page shows it to the canary's share only; extensions land in other teams' pages
// (a Device Details section, a Dashboard tile), a throwing one leaves the page working, rollback
// takes them out; retiring the remote takes its menu entry out and its deep link says the page is
// not available.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Composition } from '@veritas/shared/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signedInApi, type ApiSession } from '../support/api-session';
import { expectNoSeriousViolations } from '../support/axe';
import { DEMO, baseUrl, launchBrowser, newContext, signIn } from '../support/browser';
import { deploy as deployFrom } from '../support/remote-builds';
import { repoRoot } from '../support/server';

const REMOTE = 'returns-desk';
const PAGE = 'ReturnsDesk';
const TITLE = 'Returns Desk';
const REPORT_PAGE = 'ReturnsDeskReport';

/** Every demo account that may use the web console. */
const CONSOLE_USERS = [
  'superadmin_demo',
  'admin_demo',
  'central_demo',
  'incharge_blr',
  'exec_blr',
  'exec_del',
  'exec_mum',
  'rc_north',
  'rc_south',
];

let workspace: string;
let folder: string;
let superAdmin: ApiSession;
let token: string;
let browser: Browser;
let shellBefore: string;

const deploy = (...flags: string[]) => deployFrom(baseUrl(), folder, token, ...flags);

/** A digest of every file under `dir`, by path: equal digests, byte-identical folders. */
function folderDigest(dir: string): string {
  const hash = crypto.createHash('sha256');
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(path.relative(dir, full)).update('\0').update(fs.readFileSync(full));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
}

function build(): void {
  const webpack = require.resolve('webpack/bin/webpack.js', { paths: [path.join(repoRoot, 'mfe-devices')] });
  run(process.execPath, [webpack, '--mode', 'production'], folder);
}

/** Changes the new remote's remote.json. */
function declare(change: (declaration: Record<string, unknown> & { exposes: Record<string, string> }) => void): void {
  const file = path.join(folder, 'remote.json');
  const declaration = JSON.parse(fs.readFileSync(file, 'utf8')) as Parameters<typeof change>[0];
  change(declaration);
  fs.writeFileSync(file, JSON.stringify(declaration, null, 2));
}

function writeSource(name: string, text: string): void {
  fs.writeFileSync(path.join(folder, 'src', name), text);
}

/** Whether `username` gets the canary `version` of the remote at `percent` (the registry's rule). */
function onCanary(username: string, version: number, percent: number): boolean {
  const digest = crypto.createHash('sha256').update(`${username}:${REMOTE}:${version}`).digest();
  return digest.readUInt32BE(0) % 100 < percent;
}

async function compositionOf(username: string): Promise<Composition> {
  const session = await signedInApi(baseUrl(), username);
  try {
    return await session.get<Composition>('/remotes.json');
  } finally {
    await session.api.dispose();
  }
}

async function signedInPage(username: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await signIn(page, username);
  return { context, page };
}

/** A navigation inside the console: the top bar's title leads to the Dashboard. */
async function navigateHome(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Veritas', exact: true }).click();
  await page.waitForURL('**/Dashboard');
}

async function dataMenuItems(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Data' }).click();
  const items = await page.getByRole('menuitem').allTextContents();
  await page.keyboard.press('Escape');
  return items.map((item) => item.trim());
}

beforeAll(async () => {
  shellBefore = folderDigest(path.join(repoRoot, 'shell/dist'));
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-new-remote-'));
  run(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'scripts/create-remote.ts'), REMOTE, '--dir', workspace, '--title', TITLE],
    repoRoot,
  );
  folder = path.join(workspace, `mfe-${REMOTE}`);
  build();
  superAdmin = await signedInApi(baseUrl(), DEMO.superAdmin);
  const created = await superAdmin.post<{ secret: string }>('/veritas/registry/tokens/', {
    label: 'returns desk pipeline',
    scope: `deploy:${REMOTE}`,
    expiresOn: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
  });
  token = created.secret;
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await superAdmin?.api.dispose();
  fs.rmSync(workspace, { recursive: true, force: true });
});

test('a new remote from the template, published and promoted with a token: its page reaches the menus it names at the next navigation, the server refuses it to executive, the shell is unchanged', async () => {
  const admin = await signedInPage(DEMO.admin);
  const executive = await signedInPage(DEMO.executive);
  try {
    expect(await dataMenuItems(admin.page)).not.toContain(TITLE);
    let reloads = 0;
    admin.page.on('load', () => reloads++);

    const published = deploy('--promote');
    expect(published.output).toMatch(new RegExp(`${REMOTE} v1 published`));
    expect(published.status).toBe(0);

    // The open console heard the rollout change: its next navigation reads the composition again.
    await navigateHome(admin.page);
    await admin.page.getByRole('button', { name: 'Data' }).click();
    await admin.page.getByRole('menuitem', { name: TITLE }).click();
    await admin.page.waitForURL(`**/${PAGE}`);
    await admin.page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    expect(reloads).toBe(0);

    await navigateHome(executive.page);
    expect(await dataMenuItems(executive.page)).not.toContain(TITLE);
    const refused = await executive.page.goto(`/${PAGE}`);
    expect(refused?.status()).toBe(403);
    await executive.page.waitForURL('**/Dashboard');

    expect(folderDigest(path.join(repoRoot, 'shell/dist'))).toBe(shellBefore);
  } finally {
    await admin.context.close();
    await executive.context.close();
  }
}, 240_000);

test('a canary of a version that adds a page shows that page to the canary share only, the same for each user on every load', async () => {
  writeSource(
    'report-page.tsx',
    `export default function ReportPage() {\n  return <h1 className="vx-page-title">Returns Desk Report</h1>;\n}\n`,
  );
  declare((declaration) => {
    declaration.exposes['./ReportPage'] = './src/report-page.tsx';
    (declaration.pages as unknown[]).push({
      path: REPORT_PAGE,
      module: './ReportPage',
      title: 'Returns Desk Report',
      access: 'everyone',
    });
    (declaration.menus as unknown[]).push({ menu: 'Data', label: 'Returns Desk Report', order: 70, page: REPORT_PAGE });
  });
  build();
  const canary = deploy('--canary', '50');
  expect(canary.status).toBe(0);
  const version = Number(/v(\d+) published/.exec(canary.output)?.[1]);

  const inCanary: string[] = [];
  const outside: string[] = [];
  for (const username of CONSOLE_USERS) {
    const expected = onCanary(username, version, 50);
    (expected ? inCanary : outside).push(username);
    for (let load = 0; load < 2; load++) {
      const { pages } = await compositionOf(username);
      expect({ username, shown: pages.some((page) => page.path === REPORT_PAGE) }).toEqual({
        username,
        shown: expected,
      });
    }
  }
  for (const [username, shown] of [
    [inCanary[0], true],
    [outside[0], false],
  ] as const) {
    if (!username) continue;
    const { context, page } = await signedInPage(username);
    try {
      const answer = await page.goto(`/${REPORT_PAGE}`);
      if (shown) await page.getByRole('heading', { name: 'Returns Desk Report', level: 1 }).waitFor();
      else await page.waitForURL('**/Dashboard');
      expect(answer?.status()).toBe(shown ? 200 : 403);
    } finally {
      await context.close();
    }
  }
  await superAdmin.post(`/veritas/registry/remotes/${REMOTE}/canary/stop/`);
}, 240_000);

test('extensions: a Device Details section and a Dashboard tile from the new remote; one that throws leaves Device Details working; rollback takes them out', async () => {
  writeSource(
    'device-section.tsx',
    `import type { DeviceDetailsSectionProps } from '@veritas/shared';\n\nexport default function DeviceSection({ record }: DeviceDetailsSectionProps) {\n  return <section aria-label="Returns desk"><p>Returns desk notes for {record.tracking_id.tracking_id}</p></section>;\n}\n`,
  );
  writeSource(
    'broken-section.tsx',
    `export default function BrokenSection(): never {\n  throw new Error('This section is broken on purpose');\n}\n`,
  );
  writeSource(
    'dashboard-tile.tsx',
    `import type { DashboardTileProps } from '@veritas/shared';\n\nexport default function DashboardTile({ hub }: DashboardTileProps) {\n  return <p className="vx-card">Returns desk tile for {hub}</p>;\n}\n`,
  );
  declare((declaration) => {
    Object.assign(declaration.exposes, {
      './DeviceSection': './src/device-section.tsx',
      './BrokenSection': './src/broken-section.tsx',
      './DashboardTile': './src/dashboard-tile.tsx',
    });
    declaration.extensions = [
      { slot: 'device-details.section', contract: 1, module: './BrokenSection', order: 1, access: 'everyone' },
      { slot: 'device-details.section', contract: 1, module: './DeviceSection', order: 2, access: 'everyone' },
      { slot: 'dashboard.tile', contract: 1, module: './DashboardTile', order: 1, access: 'everyone' },
    ];
  });
  build();
  const published = deploy('--promote');
  expect(published.status).toBe(0);

  const { context, page } = await signedInPage(DEMO.admin);
  try {
    await page.goto('/Dashboard');
    await page.getByText(/^Returns desk tile for /).waitFor();

    await page.goto('/ListDevices');
    await page.locator('[data-testid="device-row"]').first().getByRole('button', { name: 'See Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Device Details' });
    await dialog.getByText(/^Returns desk notes for /).waitFor();
    // The broken contribution rendered nothing; the host's own timeline is all there.
    for (const step of ['Submitted', 'Verified at Hub', 'Verified at RC'])
      await dialog.getByText(step, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: /close/i }).click();

    await superAdmin.post(`/veritas/registry/remotes/${REMOTE}/rollback/`);
    await navigateHome(page);
    await page.locator('[data-state="ready"]').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByText(/^Returns desk tile for /).count()).toBe(0);
  } finally {
    await context.close();
  }
}, 240_000);

test('retiring the remote: an open console loses its menu entry at the next navigation, its deep link says the page is not available', async () => {
  const { context, page } = await signedInPage(DEMO.admin);
  try {
    expect(await dataMenuItems(page)).toContain(TITLE);
    const retired = await fetch(new URL(`/veritas/registry/remotes/${REMOTE}/retire/`, baseUrl()), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(retired.status).toBe(200);

    await page.getByRole('button', { name: 'Data' }).click();
    await page.getByRole('menuitem', { name: 'Stats' }).click();
    await page.waitForURL('**/ListDevices');
    expect(await dataMenuItems(page)).not.toContain(TITLE);

    const answer = await page.goto(`/${PAGE}`);
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { name: 'This page is not available' }).waitFor();
    await expectNoSeriousViolations(page, 'This page is not available');
    await page.getByRole('link', { name: 'Go to the Dashboard' }).click();
    await page.waitForURL('**/Dashboard');
  } finally {
    await context.close();
  }
}, 120_000);
