// The console's composition per viewer (docs/deploying-a-remote.md#what-the-console-loads): GET
// /remotes.json and the page document answer, for the user of the access cookie (or nobody), where
// each remote loads from and the pages, menu entries and extensions of the versions served to them
// that they may open or see; the page document's status says whether the path is such a page.
import type { Composition, RemoteDeclaration } from '@veritas/shared/domain';
import { onCanary } from '../src/registry/serving';
import { ADMIN_USERNAME, build, type Client } from './support/build';
import { CONSOLE_SHARED, WORKSPACE_DECLARATIONS, declarationOf, publishAs } from './support/registry';

const SHELL_DOCUMENT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Veritas</title></head><body><div id="root"></div></body></html>';

/** The shell's scripts of a signed-in page load (its page-load.json). */
const SHELL_SCRIPTS = ['/517.288cf8a9.js', '/bootstrap.a1b2c3d4.js'];

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'admin1', role: 'admin' },
    { username: 'central1', role: 'central_ops' },
    { username: 'inch1', role: 'incharge', group: 'HUB1' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
  ],
  signIn: { admin: 'admin1', central_ops: 'central1', incharge: 'inch1', executive: 'exec1' },
  server: { consoleShared: CONSOLE_SHARED, shellDocument: SHELL_DOCUMENT, shellScripts: SHELL_SCRIPTS },
});

/** The Cookie header `client` would send to the console's origin. */
const headersOf = (client: Client | null): Record<string, string> => (client ? { cookie: client.cookieHeader() } : {});

const compositionOf = async (client: Client | null, headers: Record<string, string> = {}) => {
  const answer = await fetch(`${api.url}/remotes.json`, { headers: { ...headersOf(client), ...headers } });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Composition;
};

/** The page document at `path` for `client`: its status, headers and the composition it carries. */
async function documentAt(path: string, client: Client | null, headers: Record<string, string> = {}) {
  const answer = await fetch(`${api.url}${path}`, { headers: { ...headersOf(client), ...headers } });
  const html = await answer.text();
  const inlined = /<script type="application\/json" id="veritas-composition">(.*?)<\/script><\/head>/s.exec(html)?.[1];
  return {
    status: answer.status,
    headers: answer.headers,
    html,
    composition: JSON.parse(inlined ?? 'null') as Composition,
  };
}

const paths = (composition: Composition) => composition.pages.map((page) => `${page.remote}:${page.path}`);
const menus = (composition: Composition) => composition.menus.map((entry) => `${entry.menu}/${entry.label}`);

/** The remotes whose composition these tests read, the spec's (workspace-composition.test.ts composes them all). */
/** The pick list's first calls' accepted filter values, as mfe-devices/remote.json declares them. */
const DEVICE_FILTERS_ACCEPTED = {
  q: '\\S([\\s\\S]{0,254}\\S)?',
  hub: '(?![aA][lL][lL]$)\\S([\\s\\S]{0,126}\\S)?',
  status: 'pending|submitted|verified|detached',
  result: 'passed|E00[1-9]|E010',
};

const WORKSPACE = ['dashboard', 'devices', 'users', 'data', 'whitelabel', 'audit'];

beforeAll(async () => {
  expect(Object.keys(WORKSPACE_DECLARATIONS)).toEqual(expect.arrayContaining(WORKSPACE));
  for (const remote of WORKSPACE) {
    const published = await publishAs(api.superAdmin, remote, { marker: 'c1' });
    expect(published.status).toBe(201);
    const promoted = await api.superAdmin.post(`registry/remotes/${remote}/promote/`, { version: 1 });
    expect(promoted.status).toBe(200);
  }
});

const EVERYONE_PAGES = [
  'dashboard:Dashboard',
  'data:Download',
  'devices:ListDevices',
  'users:createuser',
  'users:Deactivateuser',
];
const EVERYONE_MENUS = [
  'Data/Download',
  'Data/Stats',
  'User Management/Create User',
  'User Management/Deactivate User',
];

describe('/remotes.json, per viewer', () => {
  test.each(['executive', 'incharge', 'central_ops'])(
    'the role %s gets neither Upload, White Label nor Audit Log, nor their menu entries, nor Download APK',
    async (role) => {
      const composition = await compositionOf(api.as[role]!);
      expect(paths(composition)).toEqual(EVERYONE_PAGES);
      expect(menus(composition)).toEqual(EVERYONE_MENUS);
      expect(composition.extensions).toEqual([]);
    },
  );

  test.each([
    ['admin', () => api.as.admin!, 'admin1'],
    ['super_admin', () => api.superAdmin, ADMIN_USERNAME],
  ])("the role %s gets every page and menu entry, in the menus' order", async (_role, client, username) => {
    const composition = await compositionOf(client());
    expect(composition.viewer).toBe(username);
    expect(paths(composition)).toEqual([
      'audit:AuditLog',
      'dashboard:Dashboard',
      'data:Upload',
      'data:Download',
      'devices:ListDevices',
      'users:createuser',
      'users:Deactivateuser',
      'whitelabel:WhiteLabel',
    ]);
    expect(composition.menus).toEqual([
      { menu: 'Data', label: 'Upload', remote: 'data', page: 'Upload' },
      { menu: 'Data', label: 'Download APK', remote: 'data', command: './downloadApk' },
      { menu: 'Data', label: 'White Label', remote: 'whitelabel', page: 'WhiteLabel' },
      { menu: 'Data', label: 'Download', remote: 'data', page: 'Download' },
      { menu: 'Data', label: 'Stats', remote: 'devices', page: 'ListDevices' },
      { menu: 'User Management', label: 'Create User', remote: 'users', page: 'createuser' },
      { menu: 'User Management', label: 'Deactivate User', remote: 'users', page: 'Deactivateuser' },
      { menu: 'User Management', label: 'Audit Log', remote: 'audit', page: 'AuditLog' },
    ]);
    expect(composition.pages.find((page) => page.path === 'ListDevices')).toEqual({
      path: 'ListDevices',
      remote: 'devices',
      module: './ListDevices',
      title: 'Stats',
      firstCalls: [
        {
          path: 'api/devices/',
          forward: ['q', 'hub', 'status', 'result'],
          accept: DEVICE_FILTERS_ACCEPTED,
          params: { limit: '100' },
          feature: 'device-pages',
        },
        {
          path: 'api/devices/count/',
          forward: ['q', 'hub', 'status', 'result'],
          accept: DEVICE_FILTERS_ACCEPTED,
          feature: 'device-pages',
        },
      ],
    });
    expect(composition.unavailable).toEqual([]);
  });

  test("nobody signed in (no cookie, or a cookie that is no session's): only what 'everyone' may open", async () => {
    for (const composition of [
      await compositionOf(null),
      await compositionOf(null, { cookie: 'veritas_access=not-a-token' }),
    ]) {
      expect(composition.viewer).toBeNull();
      expect(paths(composition)).toEqual(EVERYONE_PAGES);
      expect(menus(composition)).toEqual(EVERYONE_MENUS);
      // Where each remote loads from is no secret: the files are public.
      expect(Object.keys(composition.remotes).sort()).toEqual([...WORKSPACE].sort());
    }
  });

  test('remotes: where each live version loads from, uncached, varying by cookie', async () => {
    const answer = await fetch(`${api.url}/remotes.json`, { headers: headersOf(api.as.executive!) });
    expect(answer.headers.get('cache-control')).toBe('private, no-cache');
    expect(answer.headers.get('vary')).toMatch(/cookie/i);
    const { remotes } = (await answer.json()) as Composition;
    const devices = (await api.superAdmin.get('registry/remotes/devices/')).body.versions[0];
    expect(remotes.devices).toEqual({ entry: devices.manifestUrl, version: 1, integrity: devices.integrity });
  });
});

describe('extensions and canaries', () => {
  const badges = (version: number): RemoteDeclaration => ({
    name: 'badges',
    pages: [{ path: `Badges${version}`, module: './Badges', title: 'Badges', access: 'everyone' }],
    menus: [],
    extensions: [
      {
        slot: 'top-bar.item',
        contract: 1,
        module: './AdminBadge',
        order: 20,
        access: { permission: 'deploy-remotes' },
      },
      { slot: 'top-bar.item', contract: 1, module: './Badge', order: 10, access: 'everyone' },
      { slot: 'dashboard.tile', contract: 1, module: './Tile', order: 5, access: { roles: ['executive'] } },
    ],
    slots: {},
    needs: {},
  });
  beforeAll(async () => {
    for (const version of [1, 2]) {
      const published = await publishAs(api.superAdmin, 'badges', {
        marker: `b${version}`,
        declaration: badges(version),
      });
      expect(published.body.version.version).toBe(version);
    }
    await api.superAdmin.post('registry/remotes/badges/promote/', { version: 1 });
    await api.superAdmin.post('registry/remotes/badges/canary/', { version: 2, percent: 50 });
  });

  test('extensions of the served version the viewer may get, by order', async () => {
    expect((await compositionOf(api.as.executive!)).extensions).toEqual([
      { slot: 'dashboard.tile', remote: 'badges', module: './Tile' },
      { slot: 'top-bar.item', remote: 'badges', module: './Badge' },
    ]);
    expect((await compositionOf(api.as.admin!)).extensions).toEqual([
      { slot: 'top-bar.item', remote: 'badges', module: './Badge' },
      { slot: 'top-bar.item', remote: 'badges', module: './AdminBadge' },
    ]);
    expect((await compositionOf(null)).extensions).toEqual([
      { slot: 'top-bar.item', remote: 'badges', module: './Badge' },
    ]);
  });

  test('a canary: its version, pages and entry go to the users in its share, by the viewer cookie or else the username', async () => {
    const expected = (bucket: string) => (onCanary(bucket, 'badges', 2, 50) ? 2 : 1);
    for (const [client, username] of [
      [api.as.executive!, 'exec1'],
      [api.as.admin!, 'admin1'],
      [api.as.incharge!, 'inch1'],
      [api.superAdmin, ADMIN_USERNAME],
    ] as const) {
      const composition = await compositionOf(client);
      const version = expected(username);
      expect([username, composition.remotes.badges?.version]).toEqual([username, version]);
      expect(paths(composition)).toContain(`badges:Badges${version}`);
      expect(paths(composition)).not.toContain(`badges:Badges${3 - version}`);
      // A canary's page is no unavailable page: someone is served it.
      expect(composition.unavailable).toEqual([]);
    }
    // The access cookie alone (no viewer cookie) buckets by the username.
    const access = `veritas_access=${api.as.executive!.cookie('veritas_access')}`;
    expect((await compositionOf(null, { cookie: access })).remotes.badges?.version).toBe(expected('exec1'));
    // The viewer cookie, when sent, names the bucket.
    const other = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].find((name) => expected(name) !== expected('exec1'))!;
    const viewer = `veritas_viewer=${Buffer.from(other).toString('base64url')}`;
    const chosen = await compositionOf(null, { cookie: `${access}; ${viewer}` });
    expect([chosen.viewer, chosen.remotes.badges?.version]).toEqual(['exec1', expected(other)]);
  });

  afterAll(async () => {
    await api.superAdmin.post('registry/remotes/badges/retire/');
  });
});

describe('the page document', () => {
  test('/ and /login: 200, the shell document with the viewer composition inlined before </head>', async () => {
    for (const [client, path] of [
      [null, '/'],
      [null, '/login'],
      [api.as.executive!, '/'],
      [api.superAdmin, '/login?next=%2FUpload'],
    ] as const) {
      const page = await documentAt(path, client);
      expect([path, page.status]).toEqual([path, 200]);
      expect(page.composition).toEqual(await compositionOf(client));
      // Without the preloads a signed-in viewer's document carries (tested below), nor its mark of
      // the live events (events.test.ts).
      const html = page.html.replace(/<link [^>]*>/g, '').replace(/<meta name="veritas-last-event-id"[^>]*>/, '');
      expect(
        html.startsWith('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Veritas</title><script'),
      ).toBe(true);
      expect(html.endsWith('</script></head><body><div id="root"></div></body></html>')).toBe(true);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-cache, private');
      expect(page.headers.get('vary')).toMatch(/cookie/i);
    }
  });

  test("the console's security headers stay, its policy unchanged: the JSON element is data, no script", async () => {
    const page = await documentAt('/Dashboard', api.as.executive!);
    const policy = page.headers.get('content-security-policy')!;
    // Scripts from the console's origin only, no inline script: the element is application/json, never run.
    expect(policy.split(';')).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test("a signed-in viewer's page: the document preloads the shell's page-load scripts, then the page's remote files", async () => {
    const page = await documentAt('/listdevices', api.as.executive!);
    expect(page.status).toBe(200);
    const { entry, integrity } = page.composition.remotes.devices!;
    const folder = entry.slice(0, -'mf-manifest.json'.length);
    const links = [...page.html.matchAll(/<link [^>]*>/g)].map((match) => match[0]);
    expect(links).toEqual([
      ...SHELL_SCRIPTS.map((script) => `<link rel="preload" as="script" href="${script}">`),
      `<link rel="preload" as="fetch" crossorigin="anonymous" href="${entry}">`,
      `<link rel="preload" as="script" crossorigin="anonymous" integrity="${integrity}" href="${folder}remoteEntry.js">`,
      expect.stringMatching(new RegExp(`^<link rel="preload" as="script" href="${folder}[^"]+\\.js">$`)),
    ]);
    // Each preloaded remote file is one the console serves.
    for (const link of links.slice(SHELL_SCRIPTS.length)) {
      const href = /href="([^"]+)"/.exec(link)![1]!;
      expect([href, (await fetch(`${api.url}${href}`)).status]).toEqual([href, 200]);
    }
    // The shell's alone at its own routes and other paths; nothing for /login, nobody, or a page refused.
    const linksAt = async (path: string, client: Client | null) =>
      [...(await documentAt(path, client)).html.matchAll(/<link [^>]*>/g)].length;
    for (const path of ['/', '/nothing-here']) {
      expect([path, await linksAt(path, api.as.executive!)]).toEqual([path, SHELL_SCRIPTS.length]);
    }
    expect(await linksAt('/Deployments', api.as.admin!)).toBe(SHELL_SCRIPTS.length);
    for (const [path, client] of [
      ['/login', api.as.executive!],
      ['/Deployments', api.as.executive!],
      ['/ListDevices', null],
      ['/Upload', api.as.executive!],
    ] as const) {
      expect([path, await linksAt(path, client)]).toEqual([path, 0]);
    }
  });

  test('a page the signed-in viewer may not open: 403, compared case-insensitively, a trailing slash ignored', async () => {
    for (const path of ['/Upload', '/upload/', '/WHITELABEL', '/AuditLog?action=session.sign-in', '/deployments/']) {
      const page = await documentAt(path, api.as.executive!);
      expect([path, page.status]).toEqual([path, 403]);
      // The document still renders: the shell leads to /Dashboard.
      expect(page.composition.viewer).toBe('exec1');
    }
    for (const [client, path] of [
      [api.as.admin!, '/Upload'],
      [api.as.admin!, '/Deployments'],
      [api.as.executive!, '/Download'],
      [api.as.executive!, '/listdevices/'],
      // Nobody signed in: the shell asks for a sign-in first.
      [null, '/Upload'],
      [null, '/AuditLog'],
    ] as const) {
      expect([path, (await documentAt(path, client)).status]).toEqual([path, 200]);
    }
  });

  test('a page no served version declares any more: 404; any other path: 200', async () => {
    const lean = declarationOf('whitelabel');
    lean.pages = [];
    lean.menus = [];
    const published = await publishAs(api.superAdmin, 'whitelabel', { marker: 'lean', declaration: lean });
    expect(
      (await api.superAdmin.post('registry/remotes/whitelabel/promote/', { version: published.body.version.version }))
        .status,
    ).toBe(200);
    for (const client of [api.as.admin!, api.as.executive!, null]) {
      const page = await documentAt('/whitelabel', client);
      expect(page.status).toBe(404);
      // With the pages of the remote retired above.
      expect(page.composition.unavailable).toEqual(['Badges1', 'Badges2', 'WhiteLabel']);
    }
    expect((await documentAt('/badges2/', api.as.admin!)).status).toBe(404);
    for (const path of ['/nothing-here', '/ListDevices/more']) {
      expect([path, (await documentAt(path, api.as.executive!)).status]).toEqual([path, 200]);
    }
    await api.superAdmin.post('registry/remotes/whitelabel/rollback/');
    expect((await documentAt('/WhiteLabel', api.as.admin!)).status).toBe(200);
  });

  test('no text of a declaration can close the element: every < is written \\u003c', async () => {
    const hostile = declarationOf('hostile');
    hostile.pages = [
      { path: 'Hostile', module: './Hostile', title: '</script><script>alert(1)</script>', access: 'everyone' },
    ];
    const published = await publishAs(api.superAdmin, 'hostile', { marker: 'h', declaration: hostile });
    expect(
      (await api.superAdmin.post('registry/remotes/hostile/promote/', { version: published.body.version.version }))
        .status,
    ).toBe(200);
    const page = await documentAt('/Hostile', null);
    expect(page.html.match(/<script/g)).toHaveLength(1);
    expect(page.html).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>');
    expect(page.composition.pages.find((p) => p.path === 'Hostile')?.title).toBe('</script><script>alert(1)</script>');
    await api.superAdmin.post('registry/remotes/hostile/retire/');
  });
});

test('REMOTES_JSON: the composition of the fixed list and the declarations given, nothing unavailable', async () => {
  const fixed = await api.start({
    staticRemotes: {
      devices: 'http://127.0.0.1:3001/mf-manifest.json',
      data: 'http://127.0.0.1:3004/mf-manifest.json',
    },
    staticDeclarations: Object.values(WORKSPACE_DECLARATIONS),
    shellDocument: SHELL_DOCUMENT,
  });
  const admin = await api.signIn('admin1');
  const composition = (await (
    await fetch(`${fixed.url}/remotes.json`, { headers: headersOf(admin) })
  ).json()) as Composition;
  expect(composition.remotes).toEqual({
    data: { entry: 'http://127.0.0.1:3004/mf-manifest.json' },
    devices: { entry: 'http://127.0.0.1:3001/mf-manifest.json' },
  });
  expect(paths(composition)).toEqual(['data:Upload', 'data:Download', 'devices:ListDevices']);
  expect(menus(composition)).toEqual(['Data/Upload', 'Data/Download APK', 'Data/Download', 'Data/Stats']);
  expect(composition.unavailable).toEqual([]);
  expect((await fetch(`${fixed.url}/Upload`, { headers: headersOf(api.as.executive!) })).status).toBe(403);
  await fixed.close();
});
