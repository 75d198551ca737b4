// Retiring a remote (docs/deploying-a-remote.md#retire): no version live nor canary, in one
// change recorded in the history and the audit trail and told to open consoles; its pages leave
// the composition (and are then unavailable), and promoting a version brings them back.
import { ADMIN_USERNAME, build } from './support/build';
import { CONSOLE_SHARED, declarationOf, publishAs, withToken } from './support/registry';

const api = build({
  users: [{ username: 'admin1', role: 'admin' }],
  signIn: { admin: 'admin1' },
  server: { consoleShared: CONSOLE_SHARED },
});

const post = (path: string, body: unknown = {}) => api.superAdmin.post(`registry/remotes/whitelabel/${path}`, body);
const composition = async () =>
  (await (await fetch(`${api.url}/remotes.json`, { headers: { cookie: api.superAdmin.cookieHeader() } })).json()) as {
    remotes: Record<string, unknown>;
    pages: { path: string }[];
    menus: { label: string }[];
    unavailable: string[];
  };

beforeAll(async () => {
  for (const marker of ['w1', 'w2'])
    expect((await publishAs(api.superAdmin, 'whitelabel', { marker })).status).toBe(201);
  await post('promote/', { version: 1 });
  await post('canary/', { version: 2, percent: 50 });
});

test('retire ends live and canary in one change: history, audit entry, live event', async () => {
  expect((await composition()).pages.map((page) => page.path)).toEqual(['WhiteLabel']);
  const eventsBefore = await api.db.kysely.selectFrom('events').select('id').where('type', '=', 'remotes').execute();

  const retired = await api.as.admin!.post('registry/remotes/whitelabel/retire/');
  expect(retired.status).toBe(200);
  expect(retired.body).toMatchObject({ remote: 'whitelabel', live: null, canary: null, previous: null });
  expect(retired.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  expect(retired.body.history[0]).toMatchObject({ action: 'retire', from: 1, to: null, percent: null, by: 'admin1' });

  const entry = await api.db.kysely
    .selectFrom('audit_log')
    .select(['action', 'outcome', 'actor_name', 'target_kind', 'target_label', 'details'])
    .where('action', '=', 'remote.retired')
    .executeTakeFirstOrThrow();
  expect({ ...entry, details: JSON.parse(entry.details!) }).toEqual({
    action: 'remote.retired',
    outcome: 'success',
    actor_name: 'admin1',
    target_kind: 'remote',
    target_label: 'whitelabel',
    details: {
      before: { live: 1, canary: 2, canary_percent: 50 },
      after: { live: null, canary: null, canary_percent: null },
    },
  });

  const events = await api.db.kysely
    .selectFrom('events')
    .select(['id', 'data'])
    .where('type', '=', 'remotes')
    .orderBy('id')
    .execute();
  expect(events.slice(eventsBefore.length).map((event) => JSON.parse(event.data))).toEqual([{ remote: 'whitelabel' }]);
});

test("the composition loses the retired remote's pages and menu entries, which are then unavailable", async () => {
  const after = await composition();
  expect(after.remotes).not.toHaveProperty('whitelabel');
  expect(after.pages).toEqual([]);
  expect(after.menus).toEqual([]);
  expect(after.unavailable).toEqual(['WhiteLabel']);
});

test('retiring a remote with no live version, or one the registry never had: 409; nothing recorded', async () => {
  const again = await post('retire/');
  expect([again.status, again.body.detail]).toEqual([409, 'whitelabel has no live version to retire.']);
  const never = await api.superAdmin.post('registry/remotes/nothing/retire/');
  expect([never.status, never.body.detail]).toEqual([409, 'nothing has no live version to retire.']);
  expect((await api.superAdmin.get('registry/remotes/')).body.remotes.map((r: { remote: string }) => r.remote)).toEqual(
    ['whitelabel'],
  );
  const rollback = await post('rollback/');
  expect([rollback.status, rollback.body.detail]).toEqual([
    409,
    'whitelabel has no earlier live version to roll back to.',
  ]);
});

test("a retired remote's page path is free to take: another remote's version serves it again", async () => {
  const declaration = { ...declarationOf('whitelabel'), name: 'brands' };
  const published = await publishAs(api.superAdmin, 'brands', { marker: 'b1', declaration });
  expect(published.status).toBe(201);
  const promoted = await api.superAdmin.post('registry/remotes/brands/promote/', { version: 1 });
  expect(promoted.status).toBe(200);
  const taken = await composition();
  expect(taken.pages).toEqual([expect.objectContaining({ path: 'WhiteLabel', remote: 'brands' })]);
  expect(taken.unavailable).toEqual([]);
  // Given back, for the whitelabel remote's own return below.
  expect((await api.superAdmin.post('registry/remotes/brands/retire/')).status).toBe(200);
  expect((await composition()).unavailable).toEqual(['WhiteLabel']);
});

test('promoting a version brings its pages back', async () => {
  const promoted = await post('promote/', { version: 2 });
  expect(promoted.body).toMatchObject({ live: 2, canary: null });
  expect(promoted.body.history[0]).toMatchObject({ action: 'promote', from: null, to: 2, by: ADMIN_USERNAME });
  const back = await composition();
  expect(back.pages.map((page) => page.path)).toEqual(['WhiteLabel']);
  expect(back.menus.map((entry) => entry.label)).toEqual(['White Label']);
  expect(back.unavailable).toEqual([]);
});

test('the same callers as promote: a token of that remote or every remote, not of another; a session needs XSRF', async () => {
  const token = async (scope: string) =>
    (
      await api.superAdmin.post('registry/tokens/', {
        label: scope,
        scope,
        expiresOn: `${new Date().getUTCFullYear() + 1}-12-31`,
      })
    ).body.secret as string;
  const other = await withToken(api.url, await token('deploy:devices'), 'POST', 'registry/remotes/whitelabel/retire/');
  expect([other.status, other.body.detail]).toEqual([403, 'This token may deploy devices only.']);
  const noXsrf = await api.superAdmin.post('registry/remotes/whitelabel/retire/', {}, { xsrf: false });
  expect(noXsrf.status).toBe(403);
  const own = await withToken(api.url, await token('deploy:whitelabel'), 'POST', 'registry/remotes/whitelabel/retire/');
  expect(own.status).toBe(200);
  expect(own.body.history[0]).toMatchObject({ action: 'retire', from: 2, by: 'token "deploy:whitelabel"' });
  // A refused retire is recorded as such.
  await withToken(api.url, await token('deploy:data'), 'POST', 'registry/remotes/whitelabel/retire/');
  const refused = await api.db.kysely
    .selectFrom('audit_log')
    .select(['outcome', 'target_label'])
    .where('action', '=', 'remote.retired')
    .where('outcome', '=', 'refused')
    .execute();
  expect(refused.length).toBeGreaterThanOrEqual(1);
});

test('the OpenAPI document lists retire with the registry calls', async () => {
  const document = (await (await fetch(`${api.url}/veritas/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { tags?: string[]; security?: unknown }>>;
  };
  const retire = document.paths['/veritas/registry/remotes/{remote}/retire/']?.post;
  expect(retire?.tags).toEqual(['registry']);
  expect(retire?.security).toEqual(document.paths['/veritas/registry/remotes/{remote}/promote/']?.post?.security);
});
