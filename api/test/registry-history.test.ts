// A rollout's history (docs/deploying-a-remote.md#history): the deployment answers its newest 50
// changes, registry/remotes/{remote}/history/ pages through all of them with a keyset cursor,
// newest first, without a gap or a repeat, also when changes are made between two pages, and
// keeps the changes of versions pruned since.
import { build, signIn } from './support/build';
import { CONSOLE_SHARED, publishAs, withToken } from './support/registry';

const api = build({ server: { consoleShared: CONSOLE_SHARED, registryKeep: 2 } });

interface Change {
  id: number;
  action: string;
  from: number | null;
  to: number | null;
}
interface Page {
  changes: Change[];
  next: string | null;
}

const history = (remote: string, query = '') => api.superAdmin.get(`registry/remotes/${remote}/history/${query}`);
const post = (remote: string, path: string, body: unknown = {}) =>
  api.superAdmin.post(`registry/remotes/${remote}/${path}`, body);

/** The ids of `remote`'s changes as stored, newest first. */
const storedIds = async (remote: string) =>
  (
    await api.db.kysely
      .selectFrom('rollout_changes')
      .select('id')
      .where('remote', '=', remote)
      .orderBy('id', 'desc')
      .execute()
  ).map((row) => row.id);

/** Every page of `remote`'s history, each read after the one before's `next`. */
async function allPages(remote: string, limit?: number): Promise<Page[]> {
  const pages: Page[] = [];
  let before: string | null = null;
  do {
    const params = new URLSearchParams();
    if (before !== null) params.set('before', before);
    if (limit !== undefined) params.set('limit', String(limit));
    const answer = await history(remote, `?${params}`);
    expect(answer.status).toBe(200);
    pages.push(answer.body as Page);
    before = (answer.body as Page).next;
    expect(pages.length).toBeLessThan(100);
  } while (before !== null);
  return pages;
}

const idsOf = (pages: Page[]) => pages.flatMap((page) => page.changes.map((change) => change.id));

beforeAll(async () => {
  // devices: v1 and v2 live one after the other, then v3 and v4 published: keeping 2, v1 is pruned.
  for (const marker of ['h1', 'h2']) {
    const { version } = (await publishAs(api.superAdmin, 'devices', { marker })).body.version;
    expect((await post('devices', 'promote/', { version })).status).toBe(200);
  }
  await publishAs(api.superAdmin, 'devices', { marker: 'h3' });
  expect((await post('devices', 'promote/', { version: 3 })).status).toBe(200);
  await publishAs(api.superAdmin, 'devices', { marker: 'h4' });
  await publishAs(api.superAdmin, 'users', { marker: 'u1' });
  await publishAs(api.superAdmin, 'users', { marker: 'u2' });
  expect((await post('users', 'promote/', { version: 1 })).status).toBe(200);
  // 58 more changes of devices: promote v4, roll back to v3; a canary now and then, and changes of
  // users between them, so that devices' ids are not consecutive.
  for (let round = 0; round < 29; round++) {
    expect((await post('devices', 'promote/', { version: 4 })).status).toBe(200);
    expect((await post('devices', 'rollback/')).status).toBe(200);
    if (round % 10 === 0) {
      expect((await post('users', 'canary/', { version: 2, percent: 5 })).status).toBe(200);
      expect((await post('devices', 'canary/', { version: 4, percent: 10 })).status).toBe(200);
      expect((await post('users', 'canary/stop/')).status).toBe(200);
      expect((await post('devices', 'canary/stop/')).status).toBe(200);
    }
  }
});

test('the deployment answers the newest 50 changes; the history pages through all of them', async () => {
  const ids = await storedIds('devices');
  // 3 promotes, 29 promotes and rollbacks, 3 canaries and their stops.
  expect(ids).toHaveLength(3 + 58 + 6);

  const deployment = (await api.superAdmin.get('registry/remotes/devices/')).body;
  expect(deployment.history.map((change: Change) => change.id)).toEqual(ids.slice(0, 50));

  const pages = await allPages('devices');
  expect(pages.map((page) => page.changes.length)).toEqual([50, 17]);
  expect(pages[0]!.changes).toEqual(deployment.history);
  expect(pages[0]!.next).toBe(String(ids[49]));
  expect(pages[1]!.next).toBeNull();
  // Every change once, newest first: no gap, no repeat.
  expect(idsOf(pages)).toEqual(ids);
});

test.each([1, 7, 66, 67, 200])('pages of %i change(s) read the same history', async (limit) => {
  const ids = await storedIds('devices');
  const pages = await allPages('devices', limit);
  expect(idsOf(pages)).toEqual(ids);
  expect(pages).toHaveLength(Math.ceil(ids.length / limit));
  expect(pages.at(-1)!.next).toBeNull();
});

test('the history of another remote holds its changes only; one without any answers an empty page', async () => {
  const users = await allPages('users');
  expect(idsOf(users)).toEqual(await storedIds('users'));
  expect(users[0]!.changes.map((change) => change.action)).toEqual([
    ...Array.from({ length: 3 }, () => ['stop-canary', 'canary']).flat(),
    'promote',
  ]);
  expect(await allPages('audit')).toEqual([{ changes: [], next: null }]);
});

test('changes made between two pages come on top, neither in the next page nor missing from it', async () => {
  const before = await storedIds('devices');
  const first = (await history('devices', '?limit=20')).body as Page;
  expect((await post('devices', 'promote/', { version: 4 })).status).toBe(200);
  expect((await post('devices', 'rollback/')).status).toBe(200);
  const rest: Page[] = [];
  for (let next = first.next; next !== null;) {
    const page = (await history('devices', `?before=${next}&limit=20`)).body as Page;
    rest.push(page);
    next = page.next;
    expect(rest.length).toBeLessThan(100);
  }
  expect([...first.changes.map((change) => change.id), ...idsOf(rest)]).toEqual(before);
  const after = await storedIds('devices');
  expect(after.slice(2)).toEqual(before);
  expect(((await history('devices', '?limit=2')).body as Page).changes.map((change) => change.id)).toEqual(
    after.slice(0, 2),
  );
});

test('the history keeps the changes of versions pruned since', async () => {
  const deployment = (await api.superAdmin.get('registry/remotes/devices/')).body;
  expect(deployment.versions.map((version: { version: number }) => version.version)).not.toContain(1);
  const changes = (await allPages('devices')).flatMap((page) => page.changes);
  expect(changes).toHaveLength((await storedIds('devices')).length);
  expect(changes.slice(-2)).toEqual([
    expect.objectContaining({ action: 'promote', from: 1, to: 2 }),
    expect.objectContaining({ action: 'promote', from: null, to: 1 }),
  ]);
});

test('a cursor beyond every id reads from the newest; a wrong cursor or limit is a 400 naming it', async () => {
  const ids = await storedIds('devices');
  const far = (await history('devices', '?before=999999999999999999&limit=3')).body as Page;
  expect(far.changes.map((change) => change.id)).toEqual(ids.slice(0, 3));
  const oldest = (await history('devices', `?before=${ids.at(-1)}`)).body as Page;
  expect(oldest).toEqual({ changes: [], next: null });

  const before = { detail: 'before must be the next value of an earlier page.', field: 'before' };
  const limit = { detail: 'limit must be a whole number from 1 to 200.', field: 'limit' };
  for (const [query, refusal] of [
    ['?before=abc', before],
    ['?before=0', before],
    ['?before=-5', before],
    ['?before=1.5', before],
    ['?before=1234567890123456789', before],
    ['?limit=0', limit],
    ['?limit=201', limit],
    ['?limit=07', limit],
    ['?limit=ten', limit],
  ] as const) {
    const answer = await history('devices', query);
    expect([query, answer.status, answer.body]).toEqual([query, 400, refusal]);
  }
  // A name that is no remote's is refused; a remote the registry has never seen has no changes.
  expect((await history('No_Body')).status).toBe(400);
  expect((await history('nobody')).body).toEqual({ changes: [], next: null });
});

test("a deploy token reads its remote's history, not another's; a session must be an admin's", async () => {
  const expiresOn = `${new Date().getUTCFullYear() + 1}-12-31`;
  const created = await api.superAdmin.post('registry/tokens/', { label: 'ci', scope: 'deploy:devices', expiresOn });
  const { secret } = created.body as { secret: string };
  const own = await withToken(api.url, secret, 'GET', 'registry/remotes/devices/history/?limit=5');
  expect(own.status).toBe(200);
  expect(own.body.changes).toHaveLength(5);
  const other = await withToken(api.url, secret, 'GET', 'registry/remotes/users/history/');
  expect([other.status, other.body.detail]).toEqual([403, 'This token may deploy devices only.']);

  await api.insertUser('exec9', 'executive');
  const executive = await signIn(api.url, 'exec9');
  expect((await executive.get('registry/remotes/devices/history/')).status).toBe(403);
  expect((await api.client().get('registry/remotes/devices/history/')).status).toBe(401);
});
