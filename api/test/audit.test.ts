// The audit trail (docs/audit.md): every security-relevant action writes exactly one entry, in its
// own transaction, with its actor, target, outcome and details; refusals are recorded and change
// nothing; the table is append-only and chained by hashes; pages, filters, export, verification,
// retention and the live event; who may read it.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { AuditEntry } from '@veritas/shared/domain';
import { verifyChain } from '../src/audit/chain';
import { pruneAuditLog } from '../src/audit/retention';
import { auditPage } from '../src/audit/search';
import { ADMIN_USERNAME, Client, ENGINE, PASSWORD, build, uploadCsv } from './support/build';
import { EventStreamReader } from './support/event-stream';
import { CONSOLE_SHARED, fakeBuild, filesOf, withToken } from './support/registry';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-audit-'));
const apkFile = path.join(folder, 'app.apk');
fs.writeFileSync(apkFile, Buffer.alloc(4096, 7));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'admin1', role: 'admin' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'incharge1', role: 'incharge', group: 'HUB1' },
    { username: 'ops1', role: 'central_ops' },
    { username: 'op1', role: 'operators', group: 'HUB1' },
  ],
  signIn: { admin: 'admin1', executive: 'exec1', incharge: 'incharge1', central_ops: 'ops1' },
  server: { apkPath: apkFile, consoleShared: CONSOLE_SHARED },
});
const { as } = api;

/** The newest seq so far: the entries after it are the next action's. */
async function head(): Promise<number> {
  const row = await api.db.kysely
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** The entries written after `since`, through the super admin's audit/ (oldest first). */
async function entriesAfter(since: number): Promise<AuditEntry[]> {
  const answer = await api.superAdmin.get('audit/?limit=200');
  expect(answer.status).toBe(200);
  return (answer.body.entries as AuditEntry[]).filter((entry) => entry.seq > since).reverse();
}

/** Runs `action` and answers the one entry it wrote (failing when it wrote none or several). */
async function oneEntry(action: () => Promise<unknown>): Promise<AuditEntry> {
  const before = await head();
  await action();
  const entries = await entriesAfter(before);
  expect(entries.map((entry) => entry.action)).toHaveLength(1);
  return entries[0]!;
}

const user = (name: string, role: string) => expect.objectContaining({ kind: 'user', name, role });
const userId = async (username: string) =>
  (await api.db.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

describe('every action writes exactly one entry', () => {
  test('a console sign-in: the user, their address, the target account', async () => {
    let client: Client | undefined;
    const entry = await oneEntry(async () => (client = await api.signIn('exec1')));
    expect(client).toBeDefined();
    expect(entry).toMatchObject({
      action: 'session.sign-in',
      outcome: 'success',
      actor: user('exec1', 'executive'),
      address: '127.0.0.1',
      target: { kind: 'user', id: String(await userId('exec1')), label: 'exec1' },
      details: { channel: 'console' },
    });
    expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a failed sign-in: anonymous with the username tried, and why', async () => {
    const entry = await oneEntry(() => api.client().login('exec1', 'wrong-password'));
    expect(entry).toMatchObject({
      action: 'session.sign-in',
      outcome: 'failure',
      actor: { kind: 'anonymous', id: null, name: 'exec1', role: null },
      target: { kind: 'user', label: 'exec1' },
      details: { channel: 'console', reason: 'wrong password' },
    });
    const unknown = await oneEntry(() => api.client().login('nobody-here', 'whatever'));
    expect(unknown.details).toEqual({ channel: 'console', reason: 'unknown username' });
  });

  test('a sign-in refused (a deactivated account) is recorded as refused, with its channel and route', async () => {
    await api.insertUser('gone1', 'central_ops');
    await as.admin!.post('user/deactivate_user/', { user_id: await userId('gone1') });
    const entry = await oneEntry(() => api.client().login('gone1', PASSWORD));
    expect(entry).toMatchObject({
      action: 'session.sign-in',
      outcome: 'refused',
      actor: { kind: 'anonymous', name: 'gone1' },
      target: { kind: 'user', label: 'gone1' },
      details: {
        channel: 'console',
        status: 403,
        message: 'Account is deactivated',
        route: 'POST /veritas/user/login/',
      },
    });
  });

  test('the mobile app: sign-in and sign-out', async () => {
    let token = '';
    const signedIn = await oneEntry(async () => {
      const answer = await api.client().post('app/login/', { username: 'op1', password: PASSWORD });
      token = answer.body.token;
    });
    expect(signedIn).toMatchObject({
      action: 'session.sign-in',
      actor: user('op1', 'operators'),
      details: { channel: 'app' },
    });
    const signedOut = await oneEntry(() =>
      api.client().request('POST', 'app/logout/', { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(signedOut).toMatchObject({ action: 'session.sign-out', outcome: 'success', details: { channel: 'app' } });
  });

  test('a console sign-out', async () => {
    const client = await api.signIn('incharge1');
    const entry = await oneEntry(() => client.post('user/logout/'));
    expect(entry).toMatchObject({
      action: 'session.sign-out',
      actor: user('incharge1', 'incharge'),
      details: { channel: 'console' },
    });
  });

  test('a refresh token used twice revokes its family, recorded', async () => {
    const client = await api.signIn('ops1');
    const stolen = client.cookie('veritas_refresh')!;
    expect((await client.post('user/refresh/')).status).toBe(200);
    const entry = await oneEntry(async () => {
      const replay = await api.client().request('POST', 'user/refresh/', {
        headers: { cookie: `veritas_refresh=${stolen}; XSRF-TOKEN=t`, 'x-xsrf-token': 't' },
      });
      expect(replay.status).toBe(401);
    });
    expect(entry).toMatchObject({
      action: 'session.family-revoked',
      actor: { kind: 'anonymous', name: 'ops1' },
      target: { kind: 'user', label: 'ops1' },
    });
  });

  test('a password changed (and a wrong current one), and one reset', async () => {
    await api.insertUser('pw1', 'central_ops');
    const client = await api.signIn('pw1');
    const wrong = await oneEntry(() =>
      client.post('user/change_password/', { current_password: 'nope', new_password: 'New-Pass-4567' }),
    );
    expect(wrong).toMatchObject({ action: 'password.changed', outcome: 'failure', actor: user('pw1', 'central_ops') });
    const changed = await oneEntry(() =>
      client.post('user/change_password/', { current_password: PASSWORD, new_password: 'New-Pass-4567' }),
    );
    expect(changed).toMatchObject({ action: 'password.changed', outcome: 'success', target: { label: 'pw1' } });
    const reset = await oneEntry(() =>
      as.admin!.post('user/reset_password/', { user_id: changed.target!.id, new_password: 'Other-Pass-8910' }),
    );
    expect(reset).toMatchObject({
      action: 'password.reset',
      outcome: 'success',
      actor: user('admin1', 'admin'),
      target: { kind: 'user', label: 'pw1' },
    });
  });

  test('users created, deactivated, activated and deleted; a group created', async () => {
    const group = await oneEntry(() =>
      as.admin!.post('user/create_group/', { code: 'HUB9', name: 'Hub nine', organization: 'hub' }),
    );
    expect(group).toMatchObject({
      action: 'group.created',
      target: { kind: 'group', label: 'HUB9' },
      details: { after: { name: 'Hub nine', code: 'HUB9', organization: 'hub' } },
    });
    const created = await oneEntry(() =>
      as.admin!.post('user/create/', {
        username: 'new1',
        email: 'new1@example.com',
        password: 'Strong-Pass-123',
        role: 'executive',
        organization: 'hub',
        group: 'HUB9',
      }),
    );
    expect(created).toMatchObject({
      action: 'user.created',
      actor: user('admin1', 'admin'),
      target: { kind: 'user', label: 'new1' },
      details: { after: { username: 'new1', role: 'executive', group: 'HUB9' } },
    });
    const id = Number(created.target!.id);
    const deactivated = await oneEntry(() => as.admin!.post('user/deactivate_user/', { user_id: id }));
    expect(deactivated).toMatchObject({
      action: 'user.deactivated',
      details: { before: { is_active: true }, after: { is_active: false } },
    });
    const activated = await oneEntry(() => as.admin!.post('user/activate_user/', { user_id: id }));
    expect(activated).toMatchObject({ action: 'user.activated', details: { after: { is_active: true } } });
    const deleted = await oneEntry(() => api.superAdmin.post('user/delete_user/', { user_id: id }));
    expect(deleted).toMatchObject({
      action: 'user.deleted',
      actor: user(ADMIN_USERNAME, 'super_admin'),
      target: { kind: 'user', id: String(id), label: 'new1' },
    });
  });

  test('a brand created, its manufacturers before → after, the exclude list', async () => {
    const created = await oneEntry(() => as.admin!.post('api/whitelable/', { brand: 'Acme' }));
    expect(created).toMatchObject({ action: 'brand.created', target: { kind: 'brand', label: 'Acme' } });
    const names = (await as.admin!.get('api/get_manufacturer/?search=apple')).body.map(
      (m: { manufacturer: string }) => m.manufacturer,
    );
    const first = await oneEntry(() =>
      as.admin!.post('api/whitelable/', { brand: 'Acme', id: created.target!.id, data: names.slice(0, 1) }),
    );
    expect(first.details).toEqual({ before: { manufacturers: [] }, after: { manufacturers: names.slice(0, 1) } });
    const second = await oneEntry(() =>
      as.admin!.post('api/whitelable/', { brand: 'Acme', id: created.target!.id, data: [] }),
    );
    expect(second).toMatchObject({
      action: 'brand.updated',
      details: { before: { manufacturers: names.slice(0, 1) }, after: { manufacturers: [] } },
    });
    const added = await oneEntry(() => as.admin!.post('api/exclude_list/', { brand: 'Zeta' }));
    expect(added).toMatchObject({
      action: 'exclude-list.changed',
      target: { kind: 'exclude-list', label: 'Zeta' },
      details: { before: { excluded: false }, after: { excluded: true } },
    });
    const removed = await oneEntry(() => as.admin!.post('api/exclude_list/remove/', { brand: 'Zeta' }));
    expect(removed.details).toEqual({ before: { excluded: true }, after: { excluded: false } });
  });

  test('an upload: its start, then its end with the file name, size and counts', async () => {
    const content =
      'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date\n' +
      'AUD-1,HUB1,mobile,Samsung,S21,false,,,2025-03-01T10:00:00Z\n' +
      'AUD-1,HUB1,mobile,Samsung,S21,false,,,2025-03-01T10:00:00Z\n' +
      'AUD-2,NOPE,mobile,Samsung,S21,false,,,2025-03-01T10:00:00Z\n';
    const before = await head();
    await uploadCsv(as.admin!, 'shipment.csv', content, 100);
    const [started, completed, ...more] = await entriesAfter(before);
    expect(more).toEqual([]);
    const target = { kind: 'upload', label: 'shipment.csv' };
    const file = { file_name: 'shipment.csv', bytes: Buffer.byteLength(content) };
    expect(started).toMatchObject({
      action: 'upload.started',
      outcome: 'success',
      actor: user('admin1', 'admin'),
      address: '127.0.0.1',
      target,
      details: file,
    });
    expect(completed).toMatchObject({
      action: 'upload.completed',
      outcome: 'success',
      actor: user('admin1', 'admin'),
      target: { ...target, id: started!.target!.id },
      details: { ...file, processed: 1, duplicates: 1, errors: 1 },
    });
  });

  test('a report download: its dates and rows; an APK download', async () => {
    const report = await oneEntry(async () => {
      const answer = await as.admin!.post('api/generate_csv/', { start_date: '2025-03-01', end_date: '2025-03-01' });
      expect(answer.status).toBe(200);
    });
    expect(report).toMatchObject({
      action: 'report.downloaded',
      outcome: 'success',
      target: { kind: 'report' },
      details: { start_date: '2025-03-01', end_date: '2025-03-01', rows: 1, complete: true },
    });
    const apk = await oneEntry(() => as.admin!.get('user/download_apk/'));
    expect(apk).toMatchObject({ action: 'apk.downloaded', details: { bytes: 4096 } });
  });

  test('the registry: published, promoted, canary, rolled back; tokens and origins', async () => {
    const token = await oneEntry(() =>
      api.superAdmin.post('registry/tokens/', {
        label: 'ci',
        scope: 'deploy:devices',
        expiresOn: `${new Date().getUTCFullYear() + 1}-12-31`,
      }),
    );
    expect(token).toMatchObject({ action: 'token.created', target: { kind: 'token', label: 'ci' } });
    expect(JSON.stringify(token)).not.toMatch(/vrt_/);
    const { secret } = (await api.superAdmin.get('registry/tokens/')).body.tokens[0] ?? {};
    expect(secret).toBeUndefined();

    const publish = (marker: string) =>
      as.admin!.post('registry/remotes/devices/versions/', { files: filesOf(fakeBuild('devices', { marker })) });
    const first = await oneEntry(() => publish('one'));
    expect(first).toMatchObject({
      action: 'remote.published',
      actor: user('admin1', 'admin'),
      target: { kind: 'remote', label: 'devices' },
      details: { version: 1, source: 'registry' },
    });
    await oneEntry(() => publish('two'));
    const promoted = await oneEntry(() => as.admin!.post('registry/remotes/devices/promote/', { version: 1 }));
    expect(promoted).toMatchObject({
      action: 'remote.promoted',
      details: { before: { live: null }, after: { live: 1 } },
    });
    const canary = await oneEntry(() =>
      as.admin!.post('registry/remotes/devices/canary/', { version: 2, percent: 10 }),
    );
    expect(canary).toMatchObject({
      action: 'remote.canary-started',
      details: { after: { canary: 2, canary_percent: 10 } },
    });
    await oneEntry(() => as.admin!.post('registry/remotes/devices/canary/stop/'));
    await oneEntry(() => as.admin!.post('registry/remotes/devices/promote/', { version: 2 }));
    const rolledBack = await oneEntry(() => as.admin!.post('registry/remotes/devices/rollback/'));
    expect(rolledBack).toMatchObject({
      action: 'remote.rolled-back',
      details: { before: { live: 2 }, after: { live: 1 } },
    });

    const tokens = (await api.superAdmin.get('registry/tokens/')).body.tokens as { id: number }[];
    const revoked = await oneEntry(() => api.superAdmin.post(`registry/tokens/${tokens[0]!.id}/revoke/`));
    expect(revoked).toMatchObject({ action: 'token.revoked', target: { kind: 'token', label: 'ci' } });
    const added = await oneEntry(() => api.superAdmin.post('registry/origins/', { origin: 'https://cdn.example.com' }));
    expect(added).toMatchObject({
      action: 'origin.added',
      target: { kind: 'origin', label: 'https://cdn.example.com' },
    });
    const removed = await oneEntry(() =>
      api.superAdmin.post('registry/origins/remove/', { origin: 'https://cdn.example.com' }),
    );
    expect(removed).toMatchObject({ action: 'origin.removed', details: { after: { allowed: false } } });
  });

  test("a deploy token's publish names the token as its actor", async () => {
    const created = await api.superAdmin.post('registry/tokens/', {
      label: 'pipeline',
      scope: 'deploy:users',
      expiresOn: `${new Date().getUTCFullYear() + 1}-12-31`,
    });
    const entry = await oneEntry(() =>
      withToken(api.url, created.body.secret, 'POST', 'registry/remotes/users/versions/', {
        files: filesOf(fakeBuild('users', { marker: 'token' })),
      }),
    );
    expect(entry.actor).toEqual({ kind: 'token', id: String(created.body.token.id), name: 'pipeline', role: null });
  });
});

describe('a refused action records its refusal and changes nothing', () => {
  test('the role gate: an executive creating a group', async () => {
    const entry = await oneEntry(async () => {
      const answer = await as.executive!.post('user/create_group/', { code: 'HUBX', organization: 'hub' });
      expect(answer.status).toBe(403);
    });
    expect(entry).toMatchObject({
      action: 'group.created',
      outcome: 'refused',
      actor: user('exec1', 'executive'),
      target: { kind: 'group', label: 'HUBX' },
      details: { status: 403 },
    });
    expect((await api.superAdmin.get('user/get_groups/')).body.map((g: { code: string }) => g.code)).not.toContain(
      'HUBX',
    );
  });

  test('a rule of the domain: deactivating oneself, a brand that exists', async () => {
    const own = await oneEntry(async () =>
      expect((await as.admin!.post('user/deactivate_user/', { user_id: await userId('admin1') })).status).toBe(403),
    );
    expect(own).toMatchObject({
      action: 'user.deactivated',
      outcome: 'refused',
      target: { kind: 'user', label: 'admin1' },
      details: { message: 'You cannot change your own account' },
    });
    await as.admin!.post('api/whitelable/', { brand: 'Dup' });
    const duplicate = await oneEntry(async () =>
      expect((await as.admin!.post('api/whitelable/', { brand: 'Dup' })).status).toBe(409),
    );
    expect(duplicate).toMatchObject({ outcome: 'refused', details: { status: 409 } });
  });

  test('the XSRF check: the session the cookie names is the actor, and the route refused is named', async () => {
    const entry = await oneEntry(async () => {
      const answer = await as.admin!.post(
        'user/create_group/',
        { code: 'HUBXSRF', organization: 'hub' },
        { xsrf: false },
      );
      expect(answer.status).toBe(403);
    });
    expect(entry).toMatchObject({
      action: 'group.created',
      outcome: 'refused',
      actor: user('admin1', 'admin'),
      address: '127.0.0.1',
      details: { status: 403, message: 'CSRF token missing or incorrect.', route: 'POST /veritas/user/create_group/' },
    });
    // Without a session the sender stays anonymous.
    const anonymous = api.client();
    await anonymous.get('user/is_LoggedIn/');
    const stranger = await oneEntry(async () =>
      expect(
        (await anonymous.post('user/login/', { username: 'exec1', password: PASSWORD }, { xsrf: false })).status,
      ).toBe(403),
    );
    expect(stranger).toMatchObject({
      actor: { kind: 'anonymous', id: null },
      details: { route: 'POST /veritas/user/login/', channel: 'console' },
    });
  });

  test('sign-in refusals of the app name its channel: no access to the app, the throttle', async () => {
    const noApp = await oneEntry(async () =>
      expect(
        (await api.client().post('app/login/', { username: 'ops1', password: PASSWORD }, { xsrf: false })).status,
      ).toBe(403),
    );
    expect(noApp).toMatchObject({
      action: 'session.sign-in',
      outcome: 'refused',
      target: { kind: 'user', label: 'ops1' },
      details: { channel: 'app', status: 403, route: 'POST /veritas/app/login/' },
    });

    await api.insertUser('throttled2', 'operators');
    const before = await head();
    for (let i = 0; i < 7; i++)
      await api.client().post('app/login/', { username: 'throttled2', password: 'wrong' }, { xsrf: false });
    const throttled = (await entriesAfter(before)).filter((entry) => entry.details?.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    for (const entry of throttled) expect(entry.details).toMatchObject({ channel: 'app' });
  });

  test('a throttled sign-in: one entry per attempt', async () => {
    await api.insertUser('throttled1', 'central_ops');
    const before = await head();
    const client = api.client();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await client.login('throttled1', 'wrong')).status);
    expect(statuses).toContain(429);
    const entries = await entriesAfter(before);
    expect(entries).toHaveLength(7);
    expect(entries.filter((e) => e.outcome === 'refused').map((e) => e.details)).toEqual(
      statuses.filter((s) => s === 429).map(() => expect.objectContaining({ status: 429 })),
    );
  });
});

describe('reading the trail', () => {
  test("admins and super admins read it; other roles get 403; verifying is a super admin's", async () => {
    for (const client of [as.admin!, api.superAdmin]) {
      expect((await client.get('audit/')).status).toBe(200);
      expect((await client.get('audit/export/')).status).toBe(200);
    }
    for (const client of [as.executive!, as.incharge!, as.central_ops!]) {
      const answer = await client.get('audit/');
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toBe('Only admins can read the audit log.');
      expect((await client.get('audit/export/')).status).toBe(403);
      expect((await client.get('audit/verify/')).status).toBe(403);
    }
    expect((await as.admin!.get('audit/verify/')).status).toBe(403);
    expect((await api.superAdmin.get('audit/verify/')).body).toMatchObject({ ok: true });
    expect((await api.client().get('audit/')).status).toBe(401);
  });

  test('filters narrow, pages go back in time without gaps or repeats', async () => {
    const all = await api.superAdmin.get('audit/?limit=200');
    const entries = all.body.entries as AuditEntry[];
    expect(entries.map((e) => e.seq)).toEqual([...entries.map((e) => e.seq)].sort((a, b) => b - a));

    const byAction = await api.superAdmin.get('audit/?action=user.created');
    expect(byAction.body.entries.length).toBeGreaterThan(0);
    expect(byAction.body.entries.every((e: AuditEntry) => e.action === 'user.created')).toBe(true);
    const byActor = await api.superAdmin.get('audit/?actor=exec1&outcome=refused');
    expect(byActor.body.entries.length).toBeGreaterThan(0);
    expect(byActor.body.entries.every((e: AuditEntry) => e.actor.name === 'exec1' && e.outcome === 'refused')).toBe(
      true,
    );
    const byTarget = await api.superAdmin.get('audit/?target_kind=brand&target=Acme');
    expect(byTarget.body.entries.map((e: AuditEntry) => e.action).sort()).toEqual([
      'brand.created',
      'brand.updated',
      'brand.updated',
    ]);

    const pages: number[] = [];
    let next: string | null = null;
    do {
      const page: { body: { entries: AuditEntry[]; next: string | null } } = await api.superAdmin.get(
        `audit/?limit=7${next ? `&before=${next}` : ''}`,
      );
      pages.push(...page.body.entries.map((e) => e.seq));
      next = page.body.next;
      if (next) expect(page.body.entries).toHaveLength(7);
    } while (next);
    expect(pages).toEqual(Array.from({ length: pages[0]! }, (_, i) => pages[0]! - i));

    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await api.superAdmin.get(`audit/?since=${encodeURIComponent(future)}`)).body).toEqual({
      entries: [],
      next: null,
    });
    const past = new Date(Date.now() - 3_600_000).toISOString();
    expect((await api.superAdmin.get(`audit/?until=${encodeURIComponent(past)}`)).body.entries).toEqual([]);
    const window = await api.superAdmin.get(
      `audit/?since=${encodeURIComponent(past)}&until=${encodeURIComponent(future)}&limit=5`,
    );
    expect(window.body.entries).toHaveLength(5);

    for (const bad of [
      'action=nope',
      'outcome=maybe',
      'since=yesterday',
      'since=2026-02-30T00:00:00Z',
      'limit=0',
      'before=x',
    ]) {
      const answer = await api.superAdmin.get(`audit/?${bad}`);
      expect(answer.status).toBe(400);
      expect(answer.body.field).toBe(bad.split('=')[0]);
    }
  });

  test('a page that runs out of time answers what it found and where to go on; following next finds the rest', async () => {
    const filter = { actor: 'exec1' };
    const whole = await auditPage(api.db, { ...filter, limit: '200' });
    expect(whole.next).toBeNull();
    // No time at all and a window of 3 entries: every page is one window, most of them short.
    const found: number[] = [];
    let before: string | undefined;
    let pages = 0;
    do {
      const page = await auditPage(api.db, { ...filter, limit: '5', before }, { budgetMs: 0, firstWindow: 3 });
      expect(page.entries.length).toBeLessThanOrEqual(5);
      found.push(...page.entries.map((e) => e.seq));
      before = page.next ?? undefined;
      pages++;
    } while (before);
    expect(found).toEqual(whole.entries.map((e) => e.seq));
    expect(pages).toBeGreaterThan(whole.entries.length / 5);
  });

  test('the export: the filtered set as CSV, newest first, formula-safe', async () => {
    await api.client().login('=HYPERLINK("x")', 'wrong');
    const answer = await as.admin!.get('audit/export/?outcome=failure');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="audit-log.csv"');
    const lines = String(answer.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Seq,Time,Actor kind,Actor,Actor id,Role,Address,Action,Target kind,Target id,Target,Outcome,Details,Hash',
    );
    expect(lines.slice(1).every((line) => line.includes(',failure,'))).toBe(true);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
  });

  test("a new entry reaches the admins' event streams, and only theirs", async () => {
    const admin = await EventStreamReader.open(api.url, as.admin!);
    const executive = await EventStreamReader.open(api.url, as.executive!);
    try {
      await admin.waitFor((m) => m.comments.includes('connected'));
      await executive.waitFor((m) => m.comments.includes('connected'));
      await api.signIn('incharge1');
      const event = await admin.waitForEvent('audit', (data) => data.action === 'session.sign-in');
      expect(event.data).toMatchObject({ actor: { name: 'incharge1' }, outcome: 'success' });
      await as.executive!.post('user/create_group/', { code: 'HUBY', organization: 'hub' }).catch(() => null);
      await api.superAdmin.post('user/create_group/', { code: 'HUBZ', organization: 'hub' });
      await executive.waitForEvent('groups', (data) => data.code === 'HUBZ');
      expect(executive.events.filter((e) => e.event === 'audit')).toEqual([]);
    } finally {
      admin.close();
      executive.close();
    }
  });
});

/** Makes the database refuse audit entries for which `when` (SQL over the new row) holds, until the returned function is called. */
async function refuseAuditEntries(when: string): Promise<() => Promise<void>> {
  const statements =
    ENGINE === 'postgres'
      ? [
          sql`create function audit_fail() returns trigger language plpgsql as $$ begin if ${sql.raw(when)} then raise exception 'no room'; end if; return new; end $$`,
          sql`create trigger audit_fail before insert on audit_log for each row execute function audit_fail()`,
        ]
      : [
          sql`create trigger audit_fail before insert on audit_log when ${sql.raw(when)} begin select raise(abort, 'no room'); end`,
        ];
  for (const statement of statements) await statement.execute(api.db.kysely);
  return async () => {
    await sql`drop trigger audit_fail${ENGINE === 'postgres' ? sql` on audit_log` : sql``}`.execute(api.db.kysely);
    if (ENGINE === 'postgres') await sql`drop function audit_fail()`.execute(api.db.kysely);
  };
}

const UPLOAD_HEADER =
  'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';

/** One chunk holding a whole file of the given tracking IDs, as the console sends it. */
const sendWholeFile = (uploadId: string, fileName: string, ids: string[]) =>
  as.admin!.postMultipart(
    'api/upload/',
    { upload_id: uploadId, chunk_index: 0, total_chunks: 1 },
    {
      name: fileName,
      content: [UPLOAD_HEADER, ...ids.map((id) => `${id},HUB1,mobile,Samsung,S21,false,,,`)].join('\n'),
    },
  );

const storedIds = async (ids: string[]) =>
  (
    await api.db.kysely.selectFrom('device_records').select('tracking_id').where('tracking_id', 'in', ids).execute()
  ).map((row) => row.tracking_id);

const uploadRow = (uploadId: string) =>
  api.db.kysely.selectFrom('uploads').select(['status', 'result']).where('upload_id', '=', uploadId).executeTakeFirst();

describe('written with the change', () => {
  test('a change whose entry cannot be written is rolled back', async () => {
    const allow = await refuseAuditEntries('true');
    try {
      const answer = await as.admin!.post('user/create_group/', { code: 'HUBFAIL', organization: 'hub' });
      expect(answer.status).toBe(500);
      const group = await api.db.kysely.selectFrom('groups').select('id').where('code', '=', 'HUBFAIL').execute();
      expect(group).toEqual([]);
    } finally {
      await allow();
    }
    expect((await as.admin!.post('user/create_group/', { code: 'HUBFAIL', organization: 'hub' })).status).toBe(201);
  });

  test('an upload whose start entry cannot be written stores nothing and is left neither processing nor failed; sent again, it completes', async () => {
    const uploadId = crypto.randomUUID();
    const ids = ['ACCRB-1', 'ACCRB-2'];
    const allow = await refuseAuditEntries("new.target_label like 'accrb%'");
    try {
      expect((await sendWholeFile(uploadId, 'accrb_x.csv', ids)).status).toBe(500);
      expect(await storedIds(ids)).toEqual([]);
      expect(await uploadRow(uploadId)).toBeUndefined();
      const found = await as.admin!.get('api/devices/?q=ACCRB');
      expect([found.status, found.body.records]).toEqual([200, []]);
    } finally {
      await allow();
    }
    const retried = await sendWholeFile(uploadId, 'accrb_x.csv', ids);
    expect([retried.status, retried.body.processed]).toEqual([200, 2]);
    expect((await storedIds(ids)).sort()).toEqual(ids);
  });

  test('an upload whose end entry cannot be written is marked failed, not left processing; its rows stand under its start entry; sent again, it completes', async () => {
    const uploadId = crypto.randomUUID();
    const ids = ['ACEND-1', 'ACEND-2'];
    const before = await head();
    const allow = await refuseAuditEntries("new.action = 'upload.completed'");
    try {
      expect((await sendWholeFile(uploadId, 'ends.csv', ids)).status).toBe(500);
      expect(await uploadRow(uploadId)).toEqual({
        status: 'failed',
        result: JSON.stringify({ status: 500, detail: 'Internal server error' }),
      });
      expect((await storedIds(ids)).sort()).toEqual(ids);
      expect((await entriesAfter(before)).map((entry) => [entry.action, entry.target?.id])).toEqual([
        ['upload.started', uploadId],
      ]);
    } finally {
      await allow();
    }
    const retried = await sendWholeFile(uploadId, 'ends.csv', ids);
    // The rows the failed run stored count as stored, not as duplicates.
    expect([retried.status, retried.body.processed, retried.body.skipped]).toEqual([200, 2, 0]);
    expect((await entriesAfter(before)).map((entry) => `${entry.action} ${entry.outcome}`)).toEqual([
      'upload.started success',
      'upload.started success',
      'upload.completed success',
    ]);
    expect((await uploadRow(uploadId))?.status).toBe('done');
  });

  test('an upload that fails is recorded as a failure with the answer its call got', async () => {
    const uploadId = crypto.randomUUID();
    const before = await head();
    const answer = await as.admin!.postMultipart(
      'api/upload/',
      { upload_id: uploadId, chunk_index: 0, total_chunks: 1 },
      { name: 'noheader.csv', content: '\n\n' },
    );
    expect(answer.status).toBe(400);
    expect((await uploadRow(uploadId))?.status).toBe('failed');
    const [started, ended] = await entriesAfter(before);
    expect(started).toMatchObject({ action: 'upload.started', outcome: 'success' });
    expect(ended).toMatchObject({
      action: 'upload.completed',
      outcome: 'failure',
      target: { kind: 'upload', id: uploadId, label: 'noheader.csv' },
      details: { status: 400, message: answer.body.detail },
    });
  });
});

/**
 * The database's refusal. Matched by its message, not as an Error: better-sqlite3 makes its errors
 * with the class of the first test file that loaded it in this jest process, another realm's.
 */
const APPEND_ONLY = { message: expect.stringMatching(/append-only/) };

describe('append-only and tamper-evident', () => {
  test('the database refuses UPDATE and DELETE of an entry', async () => {
    await expect(sql`update audit_log set outcome = 'success'`.execute(api.db.kysely)).rejects.toMatchObject(
      APPEND_ONLY,
    );
    await expect(sql`delete from audit_log`.execute(api.db.kysely)).rejects.toMatchObject(APPEND_ONLY);
    if (ENGINE === 'postgres') {
      await expect(sql`truncate audit_log`.execute(api.db.kysely)).rejects.toMatchObject(APPEND_ONLY);
    }
  });

  test('the chain holds; an entry doctored in the database is named by audit:verify and audit/verify/', async () => {
    expect(await verifyChain(api.db)).toMatchObject({ ok: true, first: 1, broken: null });
    const doctored = Math.max(2, (await head()) - 3);
    const bypass =
      ENGINE === 'postgres'
        ? {
            off: sql`alter table audit_log disable trigger audit_log_append_only`,
            on: sql`alter table audit_log enable trigger audit_log_append_only`,
          }
        : {
            off: sql`drop trigger audit_log_no_update`,
            on: sql.raw(
              `create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`,
            ),
          };
    await bypass.off.execute(api.db.kysely);
    const original = await api.db.kysely
      .selectFrom('audit_log')
      .select('actor_name')
      .where('seq', '=', doctored)
      .executeTakeFirstOrThrow();
    await sql`update audit_log set actor_name = 'someone-else' where seq = ${doctored}`.execute(api.db.kysely);
    try {
      const answer = await api.superAdmin.get('audit/verify/');
      expect(answer.body).toMatchObject({ ok: false, broken: { seq: doctored } });
      expect(answer.body.broken.reason).toMatch(/changed/);

      const run = promisify(execFile);
      const env = {
        ...process.env,
        ...(api.database.databaseUrl ? { DATABASE_URL: api.database.databaseUrl } : {}),
        VERITAS_DATA_DIR: api.database.dataDir,
      };
      const failed = await run('npx', ['tsx', 'src/audit/audit-command.ts', 'verify'], {
        cwd: path.resolve(__dirname, '..'),
        env,
      }).catch((error: { code: number; stderr: string }) => error);
      expect(failed).toMatchObject({ code: 1 });
      expect((failed as { stderr: string }).stderr).toContain(`The chain breaks at entry ${doctored}`);
    } finally {
      await sql`update audit_log set actor_name = ${original.actor_name} where seq = ${doctored}`.execute(
        api.db.kysely,
      );
      await bypass.on.execute(api.db.kysely);
    }
    expect(await verifyChain(api.db)).toMatchObject({ ok: true });
  }, 60_000);

  test('two instances writing at once keep one unbroken chain', async () => {
    const second = await api.start();
    const urls = [api.url, second.url];
    const before = await head();
    // Sign-ins and failed ones, alternating between the instances, all at once.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        new Client(urls[i % 2]!).login(i % 4 === 0 ? 'nobody-at-all' : 'exec1', i % 4 === 0 ? 'wrong' : undefined),
      ),
    );
    const rows = await api.db.kysely
      .selectFrom('audit_log')
      .select(['seq'])
      .where('seq', '>', before)
      .orderBy('seq')
      .execute();
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, i) => before + 1 + i));
    expect(rows).toHaveLength(40);
    expect(await verifyChain(api.db)).toMatchObject({ ok: true, broken: null });
    await second.close();
  }, 60_000);

  test('retention deletes only through its path, records itself, and the chain still holds', async () => {
    const last = await head();
    // Every entry is past the period a year from now; the newest is kept all the same.
    const pruned = await pruneAuditLog(api.db, 400, Date.now() + 401 * 24 * 60 * 60 * 1000);
    expect(pruned).toEqual({ deleted: last - 1, throughSeq: last - 1 });
    const [entry] = await entriesAfter(last);
    expect(entry).toMatchObject({
      action: 'audit.pruned',
      actor: { kind: 'system', name: 'system' },
      details: { retention_days: 400, through_seq: last - 1, deleted: last - 1 },
    });
    expect(await verifyChain(api.db)).toMatchObject({ ok: true, first: last, checked: 2 });
    await expect(sql`delete from audit_log`.execute(api.db.kysely)).rejects.toMatchObject(APPEND_ONLY);
    expect(await pruneAuditLog(api.db, 400)).toBeNull();
  });
});
