// The remote registry in the real console (docs/deploying-a-remote.md): the devices team builds and
// publishes a version with the deploy command, promotes it, and an open console shows it at its
// next navigation, without reload; a rollback brings the old page back. The gate refuses a build
// the console cannot run and leaves the live version alone; the shell's own check shows the error
// card for a manifest doctored past the gate; a tab that loaded version 1 keeps working once
// version 3 is live.
import fs from 'node:fs';
import path from 'node:path';
import { version as SHARED_VERSION } from '@veritas/shared/package.json';
import type { Page } from 'playwright-core';
import { signedInApi, type ApiSession } from '../support/api-session';
import { DEMO, baseUrl, freshPagePerTest, signIn } from '../support/browser';
import { DEVICES_TITLE, buildDevices, deploy as deployFrom, removeBuilds } from '../support/remote-builds';
import { repoRoot } from '../support/server';
import { workspaceRemotes } from '../support/workspace';

const deploy = (folder: string, token: string, ...flags: string[]) => deployFrom(baseUrl(), folder, token, ...flags);
const doctoredCopies: string[] = [];

const TITLE = DEVICES_TITLE;

interface Deployment {
  live: number | null;
  previous: number | null;
  versions: { version: number; manifestUrl: string }[];
  history: { action: string; from: number | null; to: number | null }[];
}

let superAdmin: ApiSession;
let token: string;
let original: Deployment;
const devices = () => superAdmin.get<Deployment>('/veritas/registry/remotes/devices/');

beforeAll(async () => {
  superAdmin = await signedInApi(baseUrl(), DEMO.superAdmin);
  const created = await superAdmin.post<{ secret: string }>('/veritas/registry/tokens/', {
    label: 'devices pipeline',
    scope: 'deploy:devices',
    expiresOn: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
  });
  token = created.secret;
  original = await devices();
}, 60_000);

afterAll(async () => {
  // Whatever a test left live, the console's own build goes live again for the next files.
  if (original.live !== null)
    await superAdmin.post('/veritas/registry/remotes/devices/promote/', { version: original.live });
  await superAdmin.api.dispose();
  removeBuilds();
  for (const copy of doctoredCopies) fs.rmSync(copy, { recursive: true, force: true });
});

const tab = freshPagePerTest();
let page: Page;
beforeEach(() => {
  page = tab.page();
});

test('pnpm start published every built remote as its first version, live', async () => {
  const { remotes } = await superAdmin.get<{ remotes: (Deployment & { remote: string })[] }>(
    '/veritas/registry/remotes/',
  );
  // Every remote of the workspace, live; other files' tests may have published remotes of their own.
  const workspace = workspaceRemotes().map((remote) => remote.name);
  const published = remotes.filter((remote) => workspace.includes(remote.remote));
  expect(published.map((remote) => [remote.remote, remote.live !== null]).sort()).toEqual(
    workspace.map((name) => [name, true]).sort(),
  );
});

test('promote: an open console shows the new version at its next navigation, without reload; rollback brings the old one back', async () => {
  const v2 = buildDevices('Device Pick List (build 2)');
  await signIn(page, DEMO.admin);
  await page.goto('/Dashboard');
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  let reloads = 0;
  page.on('load', () => reloads++);

  const published = deploy(v2, token, '--promote', '--note', 'Build 2 title');
  expect(published.status).toBe(0);
  expect(published.output).toMatch(/devices v\d+/);

  await page.getByRole('button', { name: 'Data' }).click();
  await page.getByRole('menuitem', { name: 'Stats' }).click();
  // The new version's code is fetched at this navigation: wait for its title, not the page's first.
  await page.getByRole('heading', { name: 'Device Pick List (build 2)', exact: true, level: 1 }).waitFor();

  const rolledBack = await superAdmin.post<Deployment>('/veritas/registry/remotes/devices/rollback/');
  expect(rolledBack.live).toBe(original.live);
  await page.getByRole('link', { name: 'Veritas', exact: true }).click();
  await page.waitForURL('**/Dashboard');
  await page.getByRole('button', { name: 'Data' }).click();
  await page.getByRole('menuitem', { name: 'Stats' }).click();
  await page.getByRole('heading', { name: TITLE, exact: true, level: 1 }).waitFor();
  expect(reloads).toBe(0);
}, 180_000);

test('the gate refuses a build against a newer @veritas/shared or another React, naming the mismatch; live stays', async () => {
  const before = await devices();
  const build = path.join(repoRoot, 'mfe-devices');
  // The next major version of the console's own contract.
  const newer = `${Number(SHARED_VERSION.split('.')[0]) + 1}.0.0`;
  for (const [pkg, range, message] of [
    [
      '@veritas/shared',
      `^${newer}`,
      new RegExp(
        `needs @veritas/shared \\^${newer.replace(/\./g, '\\.')}, the console provides ${SHARED_VERSION.replace(/\./g, '\\.')}`,
      ),
    ],
    ['react', '^18.2.0', /needs react \^18\.2\.0, the console provides 19\.\d+\.\d+/],
  ] as const) {
    // Beside the repository's packages, where the deploy command's tsx is found, as for any remote.
    const doctored = fs.mkdtempSync(path.join(repoRoot, 'mfe-devices-build-'));
    doctoredCopies.push(doctored);
    fs.cpSync(path.join(build, 'dist'), path.join(doctored, 'dist'), { recursive: true });
    fs.copyFileSync(path.join(build, 'package.json'), path.join(doctored, 'package.json'));
    fs.copyFileSync(path.join(build, 'remote.json'), path.join(doctored, 'remote.json'));
    const manifestFile = path.join(doctored, 'dist/mf-manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as {
      shared: { name: string; requiredVersion: string }[];
    };
    for (const shared of manifest.shared) if (shared.name === pkg) shared.requiredVersion = range;
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));

    const refused = deploy(doctored, token, '--promote');
    expect(refused.status).not.toBe(0);
    expect(refused.output).toMatch(message);
  }
  const after = await devices();
  expect(after.live).toBe(before.live);
  expect(after.versions.map((v) => v.version)).toEqual(before.versions.map((v) => v.version));
}, 60_000);

test('the load-time check: a manifest doctored past the gate shows the error card, never a half-working page', async () => {
  await signIn(page, DEMO.admin);
  // The next major version of the console's own contract, which no console provides yet.
  const newer = `^${Number(SHARED_VERSION.split('.')[0]) + 1}.0.0`;
  await page.route('**/remotes/devices/**/mf-manifest.json', async (route) => {
    const response = await route.fetch();
    const manifest = (await response.json()) as { shared: { name: string; requiredVersion: string }[] };
    for (const shared of manifest.shared) if (shared.name === '@veritas/shared') shared.requiredVersion = newer;
    await route.fulfill({ response, json: manifest });
  });
  await page.goto('/ListDevices');
  const card = page.getByRole('alert');
  await card.getByRole('heading', { name: 'Stats could not be loaded' }).waitFor();
  expect(await page.getByRole('heading', { name: TITLE }).count()).toBe(0);
});

test('a tab that loaded version 1 keeps working after version 3 went live: no ChunkLoadError', async () => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, DEMO.admin);
  await page.goto('/ListDevices');
  await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
  const v1Files = (await devices()).versions.find((v) => v.version === original.live)!.manifestUrl;

  const v2 = buildDevices('Device Pick List (build 2)');
  const v3 = buildDevices('Device Pick List (build 3)');
  expect(deploy(v2, token).status).toBe(0);
  expect(deploy(v3, token, '--promote').status).toBe(0);

  // Version 1's files are still served, for a tab that has not navigated yet.
  const manifest = await page.request.get(new URL(v1Files, baseUrl()).toString());
  expect(manifest.status()).toBe(200);
  const { metaData } = (await manifest.json()) as { metaData: { remoteEntry: { name: string } } };
  expect(
    (await page.request.get(new URL(metaData.remoteEntry.name, new URL(v1Files, baseUrl())).toString())).status(),
  ).toBe(200);

  await page.getByRole('link', { name: 'Veritas', exact: true }).click();
  await page.waitForURL('**/Dashboard');
  await page.getByRole('button', { name: 'Data' }).click();
  await page.getByRole('menuitem', { name: 'Stats' }).click();
  await page.getByRole('heading', { name: 'Device Pick List (build 3)', level: 1 }).waitFor();
  await page.locator('[data-testid="device-row"]').first().waitFor();
  expect(errors).toEqual([]);
}, 240_000);
