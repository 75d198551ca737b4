// Who may call the registry (docs/sessions.md#deploy-tokens): deploy tokens for their remotes only,
// admins' sessions, super_admins for tokens and origins; a token reaches no other call, and the
// XSRF check spares a token's call but not a session's.
import crypto from 'node:crypto';
import { ADMIN_USERNAME, PASSWORD, build } from './support/build';
import { CONSOLE_SHARED, fakeBuild, filesOf, withToken } from './support/registry';

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'admin1', role: 'admin' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'op1', role: 'operators', group: 'HUB1' },
  ],
  signIn: { admin: 'admin1', executive: 'exec1' },
  server: { consoleShared: CONSOLE_SHARED },
});

const nextYear = `${new Date().getUTCFullYear() + 1}-12-31`;
const createToken = async (label: string, scope: string, expiresOn = nextYear) => {
  const answer = await api.superAdmin.post('registry/tokens/', { label, scope, expiresOn });
  expect(answer.status).toBe(201);
  return answer.body as { token: { id: number }; secret: string };
};
const publishBody = (remote: string, marker: string) => ({ files: filesOf(fakeBuild(remote, { marker })) });

let devices: { token: { id: number }; secret: string };
beforeAll(async () => {
  devices = await createToken('ci devices', 'deploy:devices');
});

test('the secret is shown once and stored hashed', async () => {
  expect(devices.secret).toMatch(/^vrt_[A-Za-z0-9_-]{43}$/);
  const list = await api.superAdmin.get('registry/tokens/');
  expect(list.body.tokens).toEqual([
    expect.objectContaining({
      id: devices.token.id,
      label: 'ci devices',
      scope: 'deploy:devices',
      createdBy: ADMIN_USERNAME,
    }),
  ]);
  expect(JSON.stringify(list.body)).not.toContain(devices.secret);
  const row = await api.db.kysely.selectFrom('access_tokens').selectAll().executeTakeFirstOrThrow();
  expect(row.token_hash).toBe(crypto.createHash('sha256').update(devices.secret).digest('hex'));
  expect(JSON.stringify(row)).not.toContain(devices.secret.slice(4));
});

test('a token publishes and rolls out its remote, in its name, without an XSRF header', async () => {
  const published = await withToken(
    api.url,
    devices.secret,
    'POST',
    'registry/remotes/devices/versions/',
    publishBody('devices', 't1'),
  );
  expect(published.status).toBe(201);
  expect(published.body.version.publishedBy).toBe('token "ci devices"');
  const promoted = await withToken(api.url, devices.secret, 'POST', 'registry/remotes/devices/promote/', {
    version: 1,
  });
  expect(promoted.status).toBe(200);
  expect(promoted.body.history[0]).toMatchObject({ action: 'promote', to: 1, by: 'token "ci devices"' });
  expect((await withToken(api.url, devices.secret, 'GET', 'registry/remotes/devices/')).status).toBe(200);
  const [used] = (await api.superAdmin.get('registry/tokens/')).body.tokens;
  expect(Date.parse(used.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
});

test('a token of devices cannot publish users (403), nor list every remote', async () => {
  const other = await withToken(
    api.url,
    devices.secret,
    'POST',
    'registry/remotes/users/versions/',
    publishBody('users', 't2'),
  );
  expect([other.status, other.body.detail]).toEqual([403, 'This token may deploy devices only.']);
  expect((await withToken(api.url, devices.secret, 'GET', 'registry/remotes/')).status).toBe(403);
  const star = await createToken('ci all', 'deploy:*');
  expect(
    (await withToken(api.url, star.secret, 'POST', 'registry/remotes/users/versions/', publishBody('users', 't2')))
      .status,
  ).toBe(201);
});

test('a token works through the end of its last day in UTC (today to five years on): expiresAt is 00:00 UTC the day after', async () => {
  const DAY_MS = 24 * 60 * 60 * 1000;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const expiresAtOf = (created: { token: object }) => (created.token as { expiresAt: string }).expiresAt;
  const year = new Date().getUTCFullYear() + 1;
  expect(expiresAtOf(await createToken('boxing day', 'deploy:devices', `${year}-12-26`))).toBe(
    `${year}-12-27T00:00:00.000Z`,
  );
  // Today in UTC is the earliest last day; yesterday is refused.
  const today = await createToken('today', 'deploy:devices', day(Date.now()));
  expect(Date.parse(expiresAtOf(today))).toBe(Date.parse(`${day(Date.now())}T00:00:00Z`) + DAY_MS);
  const yesterday = await api.superAdmin.post('registry/tokens/', {
    label: 'yesterday',
    scope: 'deploy:devices',
    expiresOn: day(Date.now() - DAY_MS),
  });
  expect([yesterday.status, yesterday.body]).toEqual([
    400,
    { detail: 'The expiry must be today or later.', field: 'expiresOn' },
  ]);
  const farOff = await api.superAdmin.post('registry/tokens/', {
    label: 'far off',
    scope: 'deploy:devices',
    expiresOn: '9999-12-31',
  });
  expect([farOff.status, farOff.body]).toEqual([
    400,
    { detail: 'The expiry must be at most 5 years from today.', field: 'expiresOn' },
  ]);
  // It works until that instant, not at it.
  for (const [expires, status] of [
    [Date.now() + 60_000, 200],
    [Date.now(), 401],
  ] as const) {
    await api.db.kysely
      .updateTable('access_tokens')
      .set({ expires_ms: expires })
      .where('id', '=', today.token.id)
      .execute();
    expect((await withToken(api.url, today.secret, 'GET', 'registry/remotes/devices/')).status).toBe(status);
  }
});

test('an expired token and a revoked token answer 401, as an unknown one', async () => {
  const expired = await createToken('old', 'deploy:devices');
  await api.db.kysely
    .updateTable('access_tokens')
    .set({ expires_ms: Date.now() - 1 })
    .where('id', '=', expired.token.id)
    .execute();
  const revoked = await createToken('gone', 'deploy:devices');
  const revocation = await api.superAdmin.post(`registry/tokens/${revoked.token.id}/revoke/`);
  expect(revocation.status).toBe(200);
  expect(revocation.body.revokedAt).toEqual(expect.any(String));
  for (const secret of [expired.secret, revoked.secret, `vrt_${'A'.repeat(43)}`]) {
    const answer = await withToken(api.url, secret, 'GET', 'registry/remotes/devices/');
    expect([answer.status, answer.body.detail]).toEqual([401, 'The deploy token is unknown, expired or revoked.']);
  }
  expect((await api.superAdmin.post('registry/tokens/999999/revoke/')).status).toBe(404);
});

test('a token calls nothing else: console calls and app calls answer 401, tokens and origins 403', async () => {
  expect((await withToken(api.url, devices.secret, 'GET', 'user/get_role/')).status).toBe(401);
  expect((await withToken(api.url, devices.secret, 'GET', 'user/get_users/')).status).toBe(401);
  const scan = { tracking_id: 'T1', mac_address: 'AABBCCDDEEFF', model: 'm', hardware_id: 'h' };
  expect((await withToken(api.url, devices.secret, 'POST', 'app/scan/check/', scan)).status).toBe(401);
  for (const [method, path, body] of [
    ['GET', 'registry/tokens/', undefined],
    ['POST', 'registry/tokens/', { label: 'mine', scope: 'deploy:*', expiresOn: nextYear }],
    ['POST', `registry/tokens/${devices.token.id}/revoke/`, undefined],
    ['GET', 'registry/origins/', undefined],
    ['POST', 'registry/origins/', { origin: 'https://cdn.example.com' }],
  ] as const) {
    const answer = await withToken(api.url, devices.secret, method, path, body);
    expect([path, answer.status, answer.body.detail]).toEqual([
      path,
      403,
      'A deploy token may only publish and roll out its remotes.',
    ]);
  }
  // An app token is no deploy token.
  const appLogin = await fetch(`${api.url}/veritas/app/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'op1', password: PASSWORD }),
  });
  const appToken = ((await appLogin.json()) as { token: string }).token;
  expect((await withToken(api.url, appToken, 'GET', 'registry/remotes/devices/')).status).toBe(401);
});

test('a session POST without the XSRF header is refused, a token POST without it works', async () => {
  const session = await api.superAdmin.post('registry/remotes/devices/versions/', publishBody('devices', 'x1'), {
    xsrf: false,
  });
  expect([session.status, session.body.detail]).toEqual([403, 'CSRF token missing or incorrect.']);
  const token = await withToken(
    api.url,
    devices.secret,
    'POST',
    'registry/remotes/devices/versions/',
    publishBody('devices', 'x1'),
  );
  expect(token.status).toBe(201);
});

test('only a super_admin manages tokens and origins; only admins deploy from the console', async () => {
  for (const path of ['registry/tokens/', 'registry/origins/']) {
    const answer = await api.as.admin!.get(path);
    expect([answer.status, answer.body.detail]).toEqual([
      403,
      'Only a super_admin may manage deploy tokens and origins.',
    ]);
  }
  const created = await api.as.admin!.post('registry/tokens/', { label: 'x', scope: 'deploy:*', expiresOn: nextYear });
  expect(created.status).toBe(403);
  expect((await api.as.admin!.get('registry/remotes/')).status).toBe(200);
  const executive = await api.as.executive!.get('registry/remotes/devices/');
  expect([executive.status, executive.body.detail]).toEqual([403, 'Only admins may deploy remotes.']);
  expect((await api.as.executive!.get('registry/remotes/')).status).toBe(403);
  expect((await api.client().get('registry/remotes/devices/')).status).toBe(401);
});

test('a token needs a label, a known scope and an expiry from today on', async () => {
  const post = (body: unknown) => api.superAdmin.post('registry/tokens/', body);
  for (const scope of ['deploy:No_Body', 'publish:devices', 'deploy:']) {
    expect((await post({ label: 'x', scope, expiresOn: nextYear })).body).toEqual({
      detail: `Unknown scope "${scope}": deploy:<remote> or deploy:*.`,
      field: 'scope',
    });
  }
  // Any remote's name: one the registry has never seen may be deployed by its first pipeline.
  expect((await post({ label: 'x', scope: 'deploy:reports', expiresOn: nextYear })).status).toBe(201);
  expect((await post({ label: 'x', scope: 'deploy:*', expiresOn: '2020-01-01' })).body).toEqual({
    detail: 'The expiry must be today or later.',
    field: 'expiresOn',
  });
  expect((await post({ scope: 'deploy:*', expiresOn: nextYear })).body.field).toBe('label');
});

test('allowed origins: added once, listed, removed', async () => {
  const added = await api.superAdmin.post('registry/origins/', { origin: 'https://CDN.example.com:443' });
  expect(added.status).toBe(201);
  expect(added.body.origins).toEqual([
    { origin: 'https://cdn.example.com', addedBy: ADMIN_USERNAME, addedAt: expect.any(String) },
  ]);
  expect((await api.superAdmin.post('registry/origins/', { origin: 'https://cdn.example.com' })).status).toBe(409);
  expect((await api.superAdmin.post('registry/origins/', { origin: 'https://cdn.example.com:99999' })).status).toBe(
    400,
  );
  expect((await api.superAdmin.post('registry/origins/', { origin: 'http://cdn.example.com' })).body.field).toBe(
    'origin',
  );
  const removed = await api.superAdmin.post('registry/origins/remove/', { origin: 'https://cdn.example.com' });
  expect(removed.body.origins).toEqual([]);
  expect((await api.superAdmin.post('registry/origins/remove/', { origin: 'https://cdn.example.com' })).status).toBe(
    404,
  );
});

test('sign-in and refresh set the access and viewer cookies for the whole origin; logout clears them, old paths too', async () => {
  const client = api.client();
  const login = await client.login('admin1', PASSWORD);
  const viewer = login.setCookies.find((line) => line.startsWith('veritas_viewer='))!;
  expect(viewer).toContain(`veritas_viewer=${Buffer.from('admin1').toString('base64url')};`);
  expect(viewer).toMatch(/Path=\/(;|$)/);
  expect(login.setCookies.find((line) => line.startsWith('veritas_access='))).toMatch(/Path=\/(;|$)/);
  expect(viewer).toMatch(/HttpOnly/);
  expect(viewer).toMatch(/SameSite=Lax/);
  expect(viewer).toMatch(/Max-Age=604800/);
  const refresh = await client.post('user/refresh/');
  expect(refresh.setCookies.some((line) => line.startsWith('veritas_viewer='))).toBe(true);
  const logout = await client.post('user/logout/');
  const cleared = (name: string) =>
    logout.setCookies
      .filter((line) => line.startsWith(`${name}=`))
      .map((line) => [/Path=([^;]*)/.exec(line)?.[1], /Expires=Thu, 01 Jan 1970/.test(line)]);
  expect(cleared('veritas_viewer')).toEqual([
    ['/remotes.json', true],
    ['/', true],
  ]);
  expect(cleared('veritas_access')).toEqual([
    ['/veritas', true],
    ['/', true],
  ]);
});
