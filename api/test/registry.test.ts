// The remote registry (docs/deploying-a-remote.md): publishing immutable versions, the gate, the
// rollout (promote, canary, rollback) with its history, serving the files and /remotes.json,
// pruning, and publishes that fail or run at once.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { ADMIN_USERNAME, ENGINE, build, signIn } from './support/build';
import { CONSOLE_SHARED, entryOf, fakeBuild, filesOf, publishAs, sriOf } from './support/registry';

const api = build({
  users: [{ username: 'admin1', role: 'admin' }],
  signIn: { admin: 'admin1' },
  server: { consoleShared: CONSOLE_SHARED },
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api.url}${path}`, { headers });
const remotesJson = async (headers: Record<string, string> = {}) =>
  (
    (await (await get('/remotes.json', headers)).json()) as {
      remotes: Record<string, { entry: string; version: number }>;
    }
  ).remotes;
const deployment = async (remote: string) => (await api.superAdmin.get(`registry/remotes/${remote}/`)).body;

test('a publish answers 201 with version 1, its integrity, contract, exposed modules and publisher', async () => {
  const answer = await publishAs(api.superAdmin, 'devices', { marker: 'one' }, 'first');
  expect(answer.status).toBe(201);
  const entry = entryOf(fakeBuild('devices', { marker: 'one' }));
  expect(answer.body).toEqual({
    created: true,
    version: expect.objectContaining({
      remote: 'devices',
      version: 1,
      integrity: sriOf(entry.bytes),
      contract: '1.4.0',
      exposes: ['./ListDevices'],
      shared: [
        { name: '@veritas/shared', requiredVersion: '^1.0.0' },
        { name: 'react', requiredVersion: '^18.2.0' },
      ],
      source: 'registry',
      publishedBy: ADMIN_USERNAME,
      note: 'first',
      manifestUrl: expect.stringMatching(/^\/remotes\/devices\/[0-9a-f]{16}\/mf-manifest\.json$/),
    }),
  });
  expect(answer.body.version.bytes).toBeGreaterThan(0);
});

test('the same build published again is the same version (200, created false)', async () => {
  const again = await publishAs(api.superAdmin, 'devices', { marker: 'one' }, 'again');
  expect(again.status).toBe(200);
  expect(again.body).toMatchObject({ created: false, version: { version: 1, note: 'first' } });
  expect((await deployment('devices')).versions.map((v: { version: number }) => v.version)).toEqual([1]);
});

test('the rule: a build with the same manifest as a version but other files is refused (409), naming them', async () => {
  // Version 1's build with its remote.json changed after the build (its manifest not) and a file added.
  const files = fakeBuild('devices', { marker: 'one' }).map((file) =>
    file.path === 'remote.json' ? { ...file, bytes: Buffer.from(`${file.bytes.toString()}\n`) } : file,
  );
  files.push({ path: 'extra.txt', bytes: Buffer.from('more') });
  const answer = await api.superAdmin.post('registry/remotes/devices/versions/', { files: filesOf(files) });
  expect([answer.status, answer.body.detail]).toEqual([
    409,
    "Version 1 of devices has the same mf-manifest.json but other files (extra.txt, remote.json): its files would be served under one folder. Build again, with content hashes in the file names, rather than changing a build's files.",
  ]);
  expect((await deployment('devices')).versions.map((v: { version: number }) => v.version)).toEqual([1]);
});

test("a version's files are served immutable, gzip when accepted, with their content type; HEAD works", async () => {
  const { manifestUrl } = (await deployment('devices')).versions[0];
  const folder = manifestUrl.replace(/mf-manifest\.json$/, '');
  const entry = entryOf(fakeBuild('devices', { marker: 'one' }));

  const gzipped = await get(`${folder}remoteEntry.js`, { 'accept-encoding': 'gzip' });
  expect(gzipped.status).toBe(200);
  expect(gzipped.headers.get('content-encoding')).toBe('gzip');
  expect(gzipped.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(gzipped.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(gzipped.headers.get('x-content-type-options')).toBe('nosniff');
  expect(Buffer.from(await gzipped.arrayBuffer())).toEqual(entry.bytes);

  const plain = await get(`${folder}remoteEntry.js`, { 'accept-encoding': 'identity' });
  expect(plain.headers.get('content-encoding')).toBeNull();
  expect(Buffer.from(await plain.arrayBuffer())).toEqual(entry.bytes);

  const manifest = await get(manifestUrl);
  expect(manifest.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(((await manifest.json()) as { name: string }).name).toBe('devices');

  const head = await fetch(`${api.url}${folder}static/js/chunk.one.js`, { method: 'HEAD' });
  expect([head.status, await head.text()]).toEqual([200, '']);

  for (const missing of [
    `${folder}nothing.js`,
    `${folder}index.html`,
    `${folder}remote%00Entry.js`,
    '/remotes/devices/0123456789abcdef/remoteEntry.js',
    '/remotes/nobody/0123456789abcdef/remoteEntry.js',
    `${folder.replace('/devices/', '/users/')}remoteEntry.js`,
  ]) {
    const answer = await get(missing);
    expect([missing, answer.status, await answer.json()]).toEqual([missing, 404, { detail: 'Not found' }]);
  }
});

test('/remotes.json names a remote once it has a live version, uncached and per viewer', async () => {
  const before = await get('/remotes.json');
  expect(before.headers.get('cache-control')).toBe('private, no-cache');
  expect(before.headers.get('vary')).toMatch(/cookie/i);
  expect(((await before.json()) as { remotes: object }).remotes).not.toHaveProperty('devices');

  const promoted = await api.superAdmin.post('registry/remotes/devices/promote/', { version: 1 });
  expect(promoted.status).toBe(200);
  expect(promoted.body).toMatchObject({ remote: 'devices', live: 1, canary: null, previous: null });
  const { manifestUrl, integrity } = promoted.body.versions[0];
  expect((await remotesJson()).devices).toEqual({ entry: manifestUrl, version: 1, integrity });
  expect((await get(manifestUrl)).status).toBe(200);
});

describe('the gate', () => {
  test.each([
    [
      'a shared range the console is outside of',
      { reactRange: '^19.0.0' },
      'needs react ^19.0.0, the console provides 18.3.1',
    ],
    ['a newer contract', { contractRange: '^2.0.0' }, 'needs @veritas/shared ^2.0.0, the console provides 1.4.0'],
    [
      'a module its remote.json names missing',
      { exposes: [] },
      'does not expose ./ListDevices, which its remote.json names',
    ],
  ])('refuses at publish %s with 409 naming the mismatch, live unchanged', async (_case, options, problem) => {
    const answer = await publishAs(api.superAdmin, 'devices', { marker: 'refused', ...options });
    expect(answer.status).toBe(409);
    expect(answer.body.detail).toBe(`devices cannot run in this console: ${problem}`);
    expect((await deployment('devices')).live).toBe(1);
    expect((await remotesJson()).devices!.version).toBe(1);
  });

  test('refuses at promote and canary a version the console no longer runs; a server without the shell refuses all', async () => {
    const published = await publishAs(api.superAdmin, 'devices', { marker: 'two' });
    expect(published.body.version.version).toBe(2);
    // The console moved to contract 2 since: the version requires ^1.0.0.
    const newer = await api.start({ consoleShared: { ...CONSOLE_SHARED, '@veritas/shared': '2.0.0' } });
    const admin = await signIn(newer.url, ADMIN_USERNAME);
    const problem = 'devices cannot run in this console: needs @veritas/shared ^1.0.0, the console provides 2.0.0';
    expect((await admin.post('registry/remotes/devices/promote/', { version: 2 })).body.detail).toBe(problem);
    const canary = await admin.post('registry/remotes/devices/canary/', { version: 2, percent: 10 });
    expect([canary.status, canary.body.detail]).toEqual([409, problem]);

    const blind = await api.start({});
    const blindAdmin = await signIn(blind.url, ADMIN_USERNAME);
    const refusal =
      "This server does not know the console's shell, so it cannot check a version: serve the API with the console (scripts/serve.mjs).";
    for (const answer of [
      await blindAdmin.post('registry/remotes/devices/promote/', { version: 2 }),
      await publishAs(blindAdmin, 'devices', { marker: 'three' }),
    ]) {
      expect([answer.status, answer.body.detail]).toEqual([409, refusal]);
    }
    expect((await deployment('devices')).live).toBe(1);
    await newer.close();
    await blind.close();
  });

  test('a build without its manifest or its entry script is refused with 400', async () => {
    const build = fakeBuild('devices', { marker: 'incomplete' });
    const without = (path: string) => filesOf(build.filter((file) => file.path !== path));
    const noManifest = await api.superAdmin.post('registry/remotes/devices/versions/', {
      files: without('mf-manifest.json'),
    });
    expect([noManifest.status, noManifest.body]).toEqual([
      400,
      { detail: 'The build has no mf-manifest.json.', field: 'files' },
    ]);
    const noEntry = await api.superAdmin.post('registry/remotes/devices/versions/', {
      files: without('remoteEntry.js'),
    });
    expect([noEntry.status, noEntry.body.detail]).toEqual([
      400,
      'The entry script remoteEntry.js, named by mf-manifest.json, is not among the files.',
    ]);
    const twice = await api.superAdmin.post('registry/remotes/devices/versions/', {
      files: [...filesOf(build), filesOf(build)[0]],
    });
    expect([twice.status, twice.body.detail]).toEqual([400, 'The file "mf-manifest.json" is sent twice.']);
  });
});

describe('rollout', () => {
  const versions: number[] = [];
  beforeAll(async () => {
    for (const marker of ['u1', 'u2', 'u3'])
      versions.push((await publishAs(api.superAdmin, 'users', { marker })).body.version.version);
  });
  const post = (path: string, body: unknown = {}) => api.superAdmin.post(`registry/remotes/users/${path}`, body);
  const admin = (path: string, body: unknown = {}) => api.as.admin!.post(`registry/remotes/users/${path}`, body);

  test('promote, canary, stop and rollback are recorded: who, when, from and to', async () => {
    expect(versions).toEqual([1, 2, 3]);
    const started = Date.now();
    await post('promote/', { version: 1 });
    await admin('promote/', { version: 2 });
    const canary = await post('canary/', { version: 3, percent: 20 });
    expect(canary.body).toMatchObject({ live: 2, canary: { version: 3, percent: 20 }, previous: 1 });
    const stopped = await admin('canary/stop/');
    expect(stopped.body).toMatchObject({ live: 2, canary: null });
    const promoted = await post('promote/', { version: '3' });
    expect(promoted.body).toMatchObject({ live: 3, canary: null, previous: 2 });
    const history = promoted.body.history.map(({ action, from, to, percent, by }: Record<string, unknown>) => ({
      action,
      from,
      to,
      percent,
      by,
    }));
    expect(history).toEqual([
      { action: 'promote', from: 2, to: 3, percent: null, by: ADMIN_USERNAME },
      { action: 'stop-canary', from: 3, to: null, percent: null, by: 'admin1' },
      { action: 'canary', from: null, to: 3, percent: 20, by: ADMIN_USERNAME },
      { action: 'promote', from: 1, to: 2, percent: null, by: 'admin1' },
      { action: 'promote', from: null, to: 1, percent: null, by: ADMIN_USERNAME },
    ]);
    for (const change of promoted.body.history) {
      expect(Date.parse(change.at)).toBeGreaterThanOrEqual(started - 1000);
      expect(Date.parse(change.at)).toBeLessThanOrEqual(Date.now());
    }
  });

  test('a rollback ends the canary and returns to the previous live version; twice walks further back', async () => {
    await post('canary/', { version: 2, percent: 50 });
    const first = await post('rollback/');
    expect(first.body).toMatchObject({ live: 2, canary: null, previous: 1 });
    expect(first.body.history[0]).toMatchObject({ action: 'rollback', from: 3, to: 2 });
    const second = await post('rollback/');
    expect(second.body).toMatchObject({ live: 1, previous: null });
    expect(second.body.history[0]).toMatchObject({ action: 'rollback', from: 2, to: 1 });
  });

  test('a rollback with no earlier live version, stopping no canary, a canary of the live version: 409', async () => {
    const rollback = await post('rollback/');
    expect([rollback.status, rollback.body.detail]).toEqual([
      409,
      'users has no earlier live version to roll back to.',
    ]);
    const stop = await post('canary/stop/');
    expect([stop.status, stop.body.detail]).toEqual([409, 'users has no canary running.']);
    const canary = await post('canary/', { version: 1, percent: 10 });
    expect([canary.status, canary.body.detail]).toEqual([
      409,
      'Version 1 of users is live already: a canary is another version.',
    ]);
    expect((await deployment('users')).live).toBe(1);
  });

  test('an unknown version is 404; a share outside 1–99 is 400', async () => {
    expect((await post('promote/', { version: 99 })).body).toEqual({ detail: 'users has no version 99.' });
    expect((await post('promote/', { version: 9_999_999_999 })).status).toBe(404);
    expect((await post('canary/', { version: 99, percent: 5 })).status).toBe(404);
    expect((await post('canary/', { version: 2, percent: 100 })).body).toEqual({
      detail: 'The share of users is 1 to 99 percent.',
      field: 'percent',
    });
  });

  test('promoting the live version again changes nothing', async () => {
    const before = (await deployment('users')).history.length;
    const again = await post('promote/', { version: 1 });
    expect(again.body).toMatchObject({ live: 1 });
    expect(again.body.history).toHaveLength(before);
  });

  test('every remote the registry has versions of is listed, by name; a refused one is not', async () => {
    const refused = await publishAs(api.superAdmin, 'dashboard', { exposes: [] });
    expect(refused.status).toBe(409);
    const list = await api.as.admin!.get('registry/remotes/');
    expect(list.body.remotes.map((r: { remote: string }) => r.remote)).toEqual(['devices', 'users']);
    expect(list.body.remotes[1]).toMatchObject({ remote: 'users', live: 1, canary: null });
  });
});

test('two publish-and-promote runs at once: both in the history, live is one of them, both served', async () => {
  const run = async (marker: string) => {
    const published = await publishAs(api.superAdmin, 'data', { marker });
    return (await api.superAdmin.post('registry/remotes/data/promote/', { version: published.body.version.version }))
      .status;
  };
  expect(await Promise.all([run('d1'), run('d2')])).toEqual([200, 200]);
  const { live, history, versions } = await deployment('data');
  expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  expect(history.map((h: { to: number }) => h.to).sort()).toEqual([1, 2]);
  expect(history[0].to).toBe(live);
  expect(history[1].from).toBeNull();
  expect(history[0].from).toBe(history[1].to);
  for (const { manifestUrl } of versions) expect((await get(manifestUrl)).status).toBe(200);
  expect((await remotesJson()).data!.version).toBe(live);
});

test('a publish that fails inside its transaction leaves no version, no files and no blobs', async () => {
  const db = api.db.kysely;
  const blobs = async () =>
    Number(
      (
        await db
          .selectFrom('remote_blobs')
          .select(({ fn }) => fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const blobsBefore = await blobs();
  if (ENGINE === 'sqlite') {
    await sql`create trigger boom before insert on remote_version_files when new.path = 'boom.js' begin select raise(abort, 'forced'); end`.execute(
      db,
    );
  } else {
    await sql`create function boom() returns trigger language plpgsql as $$ begin if new.path = 'boom.js' then raise exception 'forced'; end if; return new; end $$`.execute(
      db,
    );
    await sql`create trigger boom before insert on remote_version_files for each row execute function boom()`.execute(
      db,
    );
  }
  const files = [...filesOf(fakeBuild('whitelabel', { marker: 'boom' })), { path: 'boom.js', content: 'Ym9vbQ==' }];
  const answer = await api.superAdmin.post('registry/remotes/whitelabel/versions/', { files });
  expect(answer.status).toBe(500);
  await sql`drop trigger boom${sql.raw(ENGINE === 'sqlite' ? '' : ' on remote_version_files')}`.execute(db);
  expect(await db.selectFrom('remote_versions').selectAll().where('remote', '=', 'whitelabel').execute()).toEqual([]);
  expect(await db.selectFrom('remote_version_files').selectAll().where('remote', '=', 'whitelabel').execute()).toEqual(
    [],
  );
  expect(await blobs()).toBe(blobsBefore);
});

test('keeping N prunes older versions but never the live, canary or previous one, and deletes unreferenced blobs', async () => {
  const keeper = await api.start({ consoleShared: CONSOLE_SHARED, registryKeep: 2 });
  const admin = await signIn(keeper.url, ADMIN_USERNAME);
  const publish = async (marker: string) => (await publishAs(admin, 'whitelabel', { marker })).body.version.version;
  const post = (path: string, body: unknown = {}) => admin.post(`registry/remotes/whitelabel/${path}`, body);
  const kept = async () => (await deployment('whitelabel')).versions.map((v: { version: number }) => v.version);
  const hashOf = (marker: string) =>
    crypto
      .createHash('sha256')
      .update(fakeBuild('whitelabel', { marker }).find((f) => f.path.includes('chunk'))!.bytes)
      .digest('hex');
  const stored = async (hash: string) =>
    (await api.db.kysely.selectFrom('remote_blobs').select('hash').where('hash', '=', hash).executeTakeFirst()) !==
    undefined;

  await post('promote/', { version: await publish('w1') });
  await post('promote/', { version: await publish('w2') });
  await post('canary/', { version: await publish('w3'), percent: 10 });
  await publish('w4');
  // 4 and 3 are the newest two; 2 is live, 1 the previous: none goes.
  expect(await kept()).toEqual([4, 3, 2, 1]);
  await publish('w5');
  expect(await kept()).toEqual([5, 4, 3, 2, 1]);
  await post('promote/', { version: 3 });
  await publish('w6');
  // Live 3, previous 2; 4 and 1 are beyond the newest two (6, 5).
  expect(await kept()).toEqual([6, 5, 3, 2]);
  expect(await stored(hashOf('w1'))).toBe(false);
  expect(await stored(hashOf('w4'))).toBe(false);
  expect(await stored(hashOf('w2'))).toBe(true);
  // The blob every build shares stays.
  const vendor = crypto
    .createHash('sha256')
    .update(fakeBuild('whitelabel').find((f) => f.path.endsWith('vendor.js'))!.bytes)
    .digest('hex');
  expect(await stored(vendor)).toBe(true);
  await keeper.close();
});
