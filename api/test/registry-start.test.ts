// `pnpm start` (createServer's publishBuilt, docs/deploying-a-remote.md#pnpm-start-remotes_json-and-the-dev-servers): the remotes
// built in the workspace are published and made live at start, the same build is the same version
// however many instances start, and a remote a team deployed keeps the team's live version.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_USERNAME, build, signIn } from './support/build';
import { CONSOLE_SHARED, fakeBuild, publishAs } from './support/registry';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-dist-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A dist folder holding a fake build of `remote`. */
function dist(name: string, remote: string, marker: string): string {
  const folder = path.join(root, name);
  for (const file of fakeBuild(remote, { marker })) {
    fs.mkdirSync(path.dirname(path.join(folder, file.path)), { recursive: true });
    fs.writeFileSync(path.join(folder, file.path), file.bytes);
  }
  return folder;
}

const api = build({ start: false });
const deployment = async (url: string, remote: string) =>
  (await (await signIn(url, ADMIN_USERNAME)).get(`registry/remotes/${remote}/`)).body;

test('the built remotes are published and made live at start; twice is the same version', async () => {
  const builds = { devices: dist('devices-1', 'devices', 's1'), users: path.join(root, 'not-built') };
  const first = await api.start({ consoleShared: CONSOLE_SHARED, publishBuilt: builds });
  const second = await api.start({ consoleShared: CONSOLE_SHARED, publishBuilt: builds });
  const devices = await deployment(second.url, 'devices');
  expect(devices).toMatchObject({
    live: 1,
    versions: [{ version: 1, publishedBy: 'pnpm start', note: 'Built by pnpm start' }],
  });
  expect(devices.history).toHaveLength(1);
  expect((await deployment(second.url, 'users')).versions).toEqual([]);
  const { remotes } = (await (await fetch(`${first.url}/remotes.json`)).json()) as { remotes: Record<string, unknown> };
  expect(Object.keys(remotes)).toEqual(['devices']);
  await first.close();
  await second.close();
});

test('instances starting at once all succeed, with one version', async () => {
  const builds = { data: dist('data-1', 'data', 's1') };
  const servers = await Promise.all(
    [1, 2, 3].map(() => api.start({ consoleShared: CONSOLE_SHARED, publishBuilt: builds })),
  );
  expect(await deployment(servers[0]!.url, 'data')).toMatchObject({ live: 1, versions: [{ version: 1 }] });
  for (const server of servers) await server.close();
});

test("a new build moves the live version until a team deploys; then pnpm start leaves the team's", async () => {
  const next = await api.start({
    consoleShared: CONSOLE_SHARED,
    publishBuilt: { devices: dist('devices-2', 'devices', 's2') },
  });
  expect(await deployment(next.url, 'devices')).toMatchObject({ live: 2 });
  const admin = await signIn(next.url, ADMIN_USERNAME);
  await publishAs(admin, 'devices', { marker: 'team' });
  await admin.post('registry/remotes/devices/promote/', { version: 3 });
  const later = await api.start({
    consoleShared: CONSOLE_SHARED,
    publishBuilt: { devices: dist('devices-4', 'devices', 's4') },
  });
  expect(await deployment(later.url, 'devices')).toMatchObject({
    live: 3,
    versions: [{ version: 4 }, { version: 3 }, { version: 2 }, { version: 1 }],
  });
  await next.close();
  await later.close();
});

test('a build whose extensions go into slots of remotes published after it is live too, whatever the order', async () => {
  // cases puts extensions into dashboard.tile and device-details.section: slots dashboard and devices render.
  const builds = {
    cases: dist('cases-1', 'cases', 's1'),
    dashboard: dist('dashboard-1', 'dashboard', 's1'),
    devices: dist('devices-order-1', 'devices', 's1'),
  };
  const server = await api.start({ consoleShared: CONSOLE_SHARED, publishBuilt: builds });
  expect(await deployment(server.url, 'cases')).toMatchObject({ live: 1, versions: [{ version: 1 }] });
  const { remotes } = (await (await fetch(`${server.url}/remotes.json`)).json()) as {
    remotes: Record<string, unknown>;
  };
  expect(Object.keys(remotes)).toEqual(expect.arrayContaining(['cases', 'dashboard', 'devices']));
  await server.close();
});
