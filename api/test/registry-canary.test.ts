// A canary's share of users (docs/deploying-a-remote.md#promote-canary-rollback): each viewer, named by the
// veritas_viewer cookie, falls on one side by a hash, so the share is near the percent asked and
// every user keeps the same version from load to load.
import { build } from './support/build';
import { CONSOLE_SHARED, publishAs } from './support/registry';

const api = build({ server: { consoleShared: CONSOLE_SHARED } });

const USERS = Array.from({ length: 100 }, (_, i) => `viewer${String(i).padStart(3, '0')}`);
const remotesFor = async (username?: string) => {
  const cookie: Record<string, string> = username
    ? { cookie: `veritas_viewer=${Buffer.from(username).toString('base64url')}` }
    : {};
  const answer = await fetch(`${api.url}/remotes.json`, { headers: cookie });
  return ((await answer.json()) as { remotes: Record<string, { version: number }> }).remotes;
};

beforeAll(async () => {
  for (const username of USERS) await api.insertUser(username, 'executive');
  await publishAs(api.superAdmin, 'devices', { marker: 'live' });
  await publishAs(api.superAdmin, 'devices', { marker: 'canary' });
  await api.superAdmin.post('registry/remotes/devices/promote/', { version: 1 });
  const canary = await api.superAdmin.post('registry/remotes/devices/canary/', { version: 2, percent: 30 });
  expect(canary.body.canary).toEqual({ version: 2, percent: 30 });
});

test('a 30% canary reaches 30±12 of 100 users, each stable over repeated loads', async () => {
  const first = new Map<string, number>();
  for (const username of USERS) first.set(username, (await remotesFor(username)).devices!.version);
  const onCanary = [...first.values()].filter((version) => version === 2).length;
  expect(onCanary).toBeGreaterThanOrEqual(18);
  expect(onCanary).toBeLessThanOrEqual(42);
  for (let load = 0; load < 3; load++) {
    for (const username of USERS)
      expect([username, (await remotesFor(username)).devices!.version]).toEqual([username, first.get(username)]);
  }
});

test('without a viewer cookie the live version is served', async () => {
  expect((await remotesFor()).devices!.version).toBe(1);
});

test('stopping the canary serves everyone the live version', async () => {
  await api.superAdmin.post('registry/remotes/devices/canary/stop/');
  for (const username of USERS.slice(0, 20)) expect((await remotesFor(username)).devices!.version).toBe(1);
});
