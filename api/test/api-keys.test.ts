// API keys (docs/integrations.md#api-keys): created and revoked by admins, shown once, stored
// hashed; a key calls /veritas/api/v1/ within its scopes only (403), nothing of the console's
// session API (401), at most its rate per minute on every instance (429 with Retry-After); its
// creation, revocation and refusals are in the audit trail.
import crypto from 'node:crypto';
import { latestTokenExpiry } from '@veritas/shared/domain';
import { insertCase } from '../src/cases/repository';
import { build } from './support/build';
import { withToken } from './support/registry';

const RATE = 5;
const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'admin1', role: 'admin' },
    { username: 'ops1', role: 'central_ops' },
  ],
  signIn: { admin: 'admin1', centralOps: 'ops1' },
  server: { apiKeyRate: RATE },
});

const nextYear = `${new Date().getUTCFullYear() + 1}-12-31`;
type Created = { token: { id: number; scope: string; expiresAt: string }; secret: string };
const createKey = async (label: string, scopes: string[], expiresOn = nextYear): Promise<Created> => {
  const answer = await api.as.admin!.post('api/integrations/keys/', { label, scopes, expiresOn });
  expect(answer.status).toBe(201);
  return answer.body as Created;
};
const auditOf = async (action: string) =>
  (await api.superAdmin.get(`audit/?action=${action}&limit=200`)).body.entries as {
    actor: { kind: string; name: string };
    outcome: string;
    target: { label: string } | null;
    details: Record<string, unknown> | null;
  }[];

beforeAll(async () => {
  const at = new Date().toISOString();
  await insertCase(api.db.kysely, {
    tracking_id: 'KEYCASE1',
    reason: 'E005',
    state: 'open',
    disposition: null,
    queue: 'HUB1',
    assignee_id: null,
    due_at: at,
    opened_at: at,
    opened_by_id: null,
    scanned_model: null,
    scanned_manufacturer: null,
    scanned_mac: null,
    scanned_hardware_id: null,
    resolved_at: null,
    updated_at: at,
  });
});

test('an admin creates a key of several scopes: the secret is answered once and stored hashed', async () => {
  const created = await createKey('order system', ['records:read', 'shipments:write']);
  expect(created.secret).toMatch(/^vrt_[A-Za-z0-9_-]{43}$/);
  // The scopes in the documented order, joined by spaces.
  expect(created.token.scope).toBe('shipments:write records:read');
  const list = await api.as.admin!.get('api/integrations/keys/');
  expect(list.body.tokens).toEqual([expect.objectContaining({ label: 'order system', lastUsedAt: null })]);
  expect(JSON.stringify(list.body)).not.toContain(created.secret);
  const row = await api.db.kysely
    .selectFrom('access_tokens')
    .select('token_hash')
    .where('id', '=', created.token.id)
    .executeTakeFirstOrThrow();
  expect(row.token_hash).toBe(crypto.createHash('sha256').update(created.secret).digest('hex'));
  const [entry] = await auditOf('token.created');
  expect(entry).toMatchObject({ actor: { name: 'admin1' }, target: { label: 'order system' } });
  expect(JSON.stringify(entry)).not.toContain(created.secret);
});

test('keys and deploy tokens are listed and revoked each where they are managed', async () => {
  const deploy = await api.superAdmin.post('registry/tokens/', {
    label: 'ci',
    scope: 'deploy:*',
    expiresOn: nextYear,
  });
  const key = await createKey('crm', ['cases:read']);
  const keys = (await api.as.admin!.get('api/integrations/keys/')).body.tokens as { label: string }[];
  expect(keys.map((k) => k.label)).not.toContain('ci');
  const tokens = (await api.superAdmin.get('registry/tokens/')).body.tokens as { label: string }[];
  expect(tokens.map((t) => t.label)).toEqual(['ci']);
  expect((await api.as.admin!.post(`api/integrations/keys/${deploy.body.token.id}/revoke/`)).status).toBe(404);
  expect((await api.superAdmin.post(`registry/tokens/${key.token.id}/revoke/`)).status).toBe(404);
});

test('only admins manage keys: central_ops gets 403, no session 401', async () => {
  const refused = await api.as.centralOps!.get('api/integrations/keys/');
  expect([refused.status, refused.body.detail]).toEqual([403, 'Only an admin may manage integrations.']);
  expect(
    (
      await api.as.centralOps!.post('api/integrations/keys/', {
        label: 'x',
        scopes: ['cases:read'],
        expiresOn: nextYear,
      })
    ).status,
  ).toBe(403);
  expect((await api.client().get('api/integrations/keys/')).status).toBe(401);
});

test('a key needs a label, known scopes each once and an expiry from today to five years on', async () => {
  const post = (body: unknown) => api.as.admin!.post('api/integrations/keys/', body);
  expect((await post({ label: 'x', scopes: [], expiresOn: nextYear })).body).toEqual({
    detail: 'Choose what the key may call.',
    field: 'scopes',
  });
  expect((await post({ label: 'x', scopes: ['deploy:*'], expiresOn: nextYear })).body).toEqual({
    detail: 'A scope is one of shipments:write, records:read, cases:read, cases:write.',
    field: 'scopes',
  });
  expect((await post({ label: 'x', scopes: ['cases:read', 'cases:read'], expiresOn: nextYear })).body.field).toBe(
    'scopes',
  );
  expect((await post({ label: 'x', scopes: ['cases:read'], expiresOn: '2020-01-01' })).body).toEqual({
    detail: 'The expiry must be today or later.',
    field: 'expiresOn',
  });
  expect((await post({ scopes: ['cases:read'], expiresOn: nextYear })).body.field).toBe('label');
  // At most five years from today (UTC): a year past 9999 would be no RFC 3339 instant either.
  const dayAfterLatest = new Date(Date.parse(`${latestTokenExpiry()}T00:00:00Z`) + 86_400_000)
    .toISOString()
    .slice(0, 10);
  for (const expiresOn of [dayAfterLatest, '9999-12-31'])
    expect((await post({ label: 'x', scopes: ['cases:read'], expiresOn })).body).toEqual({
      detail: 'The expiry must be at most 5 years from today.',
      field: 'expiresOn',
    });
  expect((await post({ label: 'x', scopes: ['cases:read'], expiresOn: latestTokenExpiry() })).status).toBe(201);
});

test('a key calls within its scopes: cases:read lists the cases, a shipments:write key is refused (403, recorded)', async () => {
  const reader = await createKey('case reader', ['cases:read']);
  const page = await withToken(api.url, reader.secret, 'GET', 'api/v1/cases/?state=open');
  expect(page.status).toBe(200);
  expect(page.body.cases).toEqual([expect.objectContaining({ tracking_id: 'KEYCASE1', queue: 'HUB1' })]);
  const [listed] = (await api.as.admin!.get('api/integrations/keys/')).body.tokens as { lastUsedAt: string }[];
  expect(Date.parse(listed!.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);

  const shipper = await createKey('shipper', ['shipments:write']);
  const refused = await withToken(api.url, shipper.secret, 'GET', 'api/v1/cases/');
  expect([refused.status, refused.body.detail]).toEqual([
    403,
    'This key may not read cases: it needs the scope cases:read.',
  ]);
  expect((await auditOf('token.refused'))[0]).toMatchObject({
    actor: { kind: 'token', name: 'shipper' },
    outcome: 'refused',
    details: { reason: 'needs cases:read', call: 'GET /veritas/api/v1/cases/' },
  });
});

test('a key reaches nothing of the console (401) nor the registry (403); no key is 401', async () => {
  const key = await createKey('everything', ['shipments:write', 'records:read', 'cases:read', 'cases:write']);
  expect((await withToken(api.url, key.secret, 'GET', 'user/get_role/')).status).toBe(401);
  expect((await withToken(api.url, key.secret, 'GET', 'api/cases/')).status).toBe(401);
  expect((await withToken(api.url, key.secret, 'GET', 'api/integrations/keys/')).status).toBe(401);
  // A POST too: 401 as a GET, not the XSRF check's 403.
  const posted = await withToken(api.url, key.secret, 'POST', 'api/integrations/keys/', { label: 'x' });
  expect([posted.status, posted.body.detail]).toEqual([
    401,
    'Authentication credentials were not provided or have expired.',
  ]);
  expect((await withToken(api.url, key.secret, 'GET', 'registry/remotes/devices/')).status).toBe(403);
  const none = await fetch(`${api.url}/veritas/api/v1/cases/`);
  expect([none.status, ((await none.json()) as { detail: string }).detail]).toEqual([
    401,
    'Call with an API key: Authorization: Bearer vrt_….',
  ]);
  // Nor does a console session reach the API.
  expect((await api.as.admin!.get('api/v1/cases/')).status).toBe(401);
  // A key is no session whatever cookies come with it: a GET with an admin's session cookie too.
  const bearer = { headers: { authorization: `Bearer ${key.secret}` } };
  for (const path of ['user/get_users/', 'api/cases/', 'user/is_LoggedIn/']) {
    const withCookie = await api.as.admin!.get(path, bearer);
    expect([path, withCookie.status, withCookie.body.detail]).toEqual([
      path,
      401,
      'Authentication credentials were not provided or have expired.',
    ]);
  }
  // The API sets no cookie: its calls carry none.
  expect(none.headers.get('set-cookie')).toBeNull();
});

test('a revoked key is refused at once on every instance, an expired one too; each refusal recorded', async () => {
  const other = await api.start({ apiKeyRate: RATE });
  try {
    const key = await createKey('to revoke', ['cases:read']);
    expect((await withToken(other.url, key.secret, 'GET', 'api/v1/cases/')).status).toBe(200);
    expect((await api.as.admin!.post(`api/integrations/keys/${key.token.id}/revoke/`)).status).toBe(200);
    const revoked = await withToken(other.url, key.secret, 'GET', 'api/v1/cases/');
    expect([revoked.status, revoked.body.detail]).toEqual([401, 'The API key is revoked.']);
    expect((await auditOf('token.revoked'))[0]).toMatchObject({
      target: { label: 'to revoke' },
      details: { before: { scope: 'cases:read', expires_at: key.token.expiresAt } },
    });

    const old = await createKey('old', ['cases:read']);
    await api.db.kysely
      .updateTable('access_tokens')
      .set({ expires_ms: Date.now() - 1 })
      .where('id', '=', old.token.id)
      .execute();
    const expired = await withToken(api.url, old.secret, 'GET', 'api/v1/cases/');
    expect([expired.status, expired.body.detail]).toEqual([401, 'The API key is expired.']);
    const unknown = await withToken(api.url, `vrt_${'A'.repeat(43)}`, 'GET', 'api/v1/cases/');
    expect([unknown.status, unknown.body.detail]).toEqual([401, 'The API key is unknown.']);
    const reasons = (await auditOf('token.refused')).map((entry) => [entry.actor.name, entry.details?.reason]);
    expect(reasons).toEqual(
      expect.arrayContaining([
        ['to revoke', 'revoked'],
        ['old', 'expired'],
      ]),
    );
  } finally {
    await other.close();
  }
});

test('the rate limit counts a key’s calls on every instance: the next is 429 with Retry-After, recorded once', async () => {
  const other = await api.start({ apiKeyRate: RATE });
  try {
    const key = await createKey('busy', ['cases:read']);
    const call = (url: string) =>
      fetch(`${url}/veritas/api/v1/cases/`, { headers: { authorization: `Bearer ${key.secret}` } });
    // RATE calls alternating between the two instances pass, then each instance refuses.
    for (let i = 0; i < RATE; i++) expect((await call(i % 2 ? other.url : api.url)).status).toBe(200);
    for (const url of [api.url, other.url]) {
      const refused = await call(url);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(
        new RegExp(`^This key made more than ${RATE} calls this minute: try again in \\d+ s\\.$`),
      );
    }
    const recorded = (await auditOf('token.refused')).filter((entry) => entry.actor.name === 'busy');
    expect(recorded).toEqual([
      expect.objectContaining({
        details: { reason: `over ${RATE} calls a minute`, call: 'GET /veritas/api/v1/cases/' },
      }),
    ]);
    // Another key has its own count.
    const calm = await createKey('calm', ['cases:read']);
    expect((await withToken(api.url, calm.secret, 'GET', 'api/v1/cases/')).status).toBe(200);
    // A new window starts a minute after the last began.
    await api.db.kysely
      .updateTable('access_tokens')
      .set({ window_start_ms: Date.now() - 60_000 })
      .where('id', '=', key.token.id)
      .execute();
    expect((await call(api.url)).status).toBe(200);
  } finally {
    await other.close();
  }
});

test('a cases:write key resolves a case on its version: the timeline and the trail name the key', async () => {
  const { id, version } = (await api.as.centralOps!.get('api/cases/?state=open')).body.cases[0] as {
    id: number;
    version: number;
  };
  const reader = await createKey('reader only', ['cases:read']);
  const body = { disposition: 'quarantined', note: 'Held at the hub by the order system.', version };
  const refused = await withToken(api.url, reader.secret, 'POST', `api/v1/cases/${id}/resolve/`, body);
  expect([refused.status, refused.body.detail]).toEqual([
    403,
    'This key may not resolve cases: it needs the scope cases:write.',
  ]);

  const writer = await createKey('resolver', ['cases:write']);
  // No XSRF header, no cookie: the key alone.
  const resolved = await withToken(api.url, writer.secret, 'POST', `api/v1/cases/${id}/resolve/`, body);
  expect(resolved.status).toBe(200);
  expect(resolved.body).toMatchObject({ id, state: 'resolved', disposition: 'quarantined', version: version + 1 });
  const detail = (await api.as.centralOps!.get(`api/cases/${id}/`)).body;
  expect(detail.timeline.at(-1)).toMatchObject({ kind: 'resolved', by: 'token "resolver"', note: body.note });
  expect((await auditOf('case.resolved'))[0]).toMatchObject({
    actor: { kind: 'token', name: 'resolver' },
    outcome: 'success',
  });

  // The same version again: 409 with the case as it now is, recorded as the console's 409s are.
  const stale = await withToken(api.url, writer.secret, 'POST', `api/v1/cases/${id}/resolve/`, body);
  expect(stale.status).toBe(409);
  expect(stale.body.case).toMatchObject({ id, state: 'resolved', version: version + 1 });
  // Its target named as the console's refusals name a case: by tracking ID and reason (docs/audit.md#refusals).
  const [row] = await api.db.kysely
    .selectFrom('cases')
    .select(['tracking_id', 'reason'])
    .where('id', '=', id)
    .execute();
  expect((await auditOf('case.resolved'))[0]).toMatchObject({
    actor: { name: 'resolver' },
    outcome: 'refused',
    target: { kind: 'case', id: String(id), label: `${row!.tracking_id} (${row!.reason})` },
  });
  const invalid = await withToken(api.url, writer.secret, 'POST', `api/v1/cases/${id}/resolve/`, {
    disposition: 'lost',
    note: 'x',
    version,
  });
  expect([invalid.status, invalid.body.field]).toEqual([400, 'disposition']);
});
