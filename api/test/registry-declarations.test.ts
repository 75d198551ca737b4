// What a version declares (docs/deploying-a-remote.md#the-declaration, #the-checks): its
// remote.json is read at publish and kept with it; at publish, promote and canary the registry
// refuses (409, every problem named) a declaration that does not fit the server or the other
// remotes served at that moment. A version published before declarations were kept adds nothing
// and cannot be served again but by a rollback.
import type { RemoteDeclaration } from '@veritas/shared/domain';
import { build } from './support/build';
import { CONSOLE_SHARED, declarationOf, publishAs, type FakeBuildOptions } from './support/registry';

const api = build({ server: { consoleShared: CONSOLE_SHARED } });

const post = (remote: string, path: string, body: unknown = {}) =>
  api.superAdmin.post(`registry/remotes/${remote}/${path}`, body);

/** A remote of the tests' own: one page, its menu entry, no extension, records needed. */
const reports = (): RemoteDeclaration => ({
  name: 'reports',
  pages: [{ path: 'Reports', module: './Reports', title: 'Reports', access: 'everyone' }],
  menus: [{ menu: 'Data', label: 'Reports', order: 60, page: 'Reports' }],
  extensions: [],
  slots: {},
  needs: { records: '^1' },
});

let builds = 0;
/** Publishes a build of `remote` declaring `declaration` (another build each time). */
const publish = (remote: string, declaration: FakeBuildOptions['declaration'], options: FakeBuildOptions = {}) =>
  publishAs(api.superAdmin, remote, { marker: `b${++builds}`, declaration, ...options });

const refusal = (problems: string) => `reports cannot run in this console: ${problems}`;

beforeAll(async () => {
  // Served: the dashboard (it renders dashboard.tile at contract 1) and the devices (/ListDevices).
  for (const remote of ['dashboard', 'devices']) {
    const published = await publish(remote, declarationOf(remote));
    expect(published.status).toBe(201);
    expect((await post(remote, 'promote/', { version: published.body.version.version })).status).toBe(200);
  }
});

describe('at publish, refuses with 409 and leaves nothing stored', () => {
  const page = (change: Partial<RemoteDeclaration['pages'][number]>) => (d: RemoteDeclaration) => {
    Object.assign(d.pages[0]!, change);
  };
  const extension =
    (slot: string, contract: number, module = './Tile') =>
    (d: RemoteDeclaration) => {
      d.extensions.push({ slot, contract, module, order: 1, access: 'everyone' });
    };
  test.each<[string, (declaration: RemoteDeclaration) => void, string]>([
    [
      'page path taken by the shell (compared case-insensitively)',
      (d) => {
        d.pages[0]!.path = 'LOGIN';
        d.menus[0]!.page = 'LOGIN';
      },
      'declares the page /LOGIN, which is a route of the shell',
    ],
    [
      "page path of the server's own: the API (compared case-insensitively)",
      (d) => {
        d.pages[0]!.path = 'veritas';
        d.menus[0]!.page = 'veritas';
      },
      'declares the page /veritas, which is a path of the server',
    ],
    [
      "page path of the server's own: the registry's files",
      (d) => {
        d.pages[0]!.path = 'Remotes';
        d.menus[0]!.page = 'Remotes';
      },
      'declares the page /Remotes, which is a path of the server',
    ],
    [
      'page path taken by another live remote (compared case-insensitively)',
      (d) => {
        d.pages[0]!.path = 'listdevices';
        d.menus = [];
      },
      'declares the page /listdevices, which devices declares',
    ],
    [
      'a home page while another live remote has one',
      page({ home: true }),
      "declares /Reports the home page, which dashboard's /Dashboard is",
    ],
    [
      'unknown role',
      page({ access: { roles: ['admin', 'boss'] } }),
      'gives the page /Reports the role "boss", which is not a role of the web console',
    ],
    [
      'unknown role: operators do not use the web console',
      page({ access: { roles: ['operators'] } }),
      'gives the page /Reports the role "operators", which is not a role of the web console',
    ],
    [
      'unknown permission',
      page({ access: { permission: 'fly' } }),
      'gives the page /Reports the permission "fly", which the server does not know',
    ],
    [
      'menu not of the shell',
      (d) => void (d.menus[0]!.menu = 'Tools'),
      'puts the menu entry "Reports" in the menu "Tools", which the shell does not have',
    ],
    [
      'menu entry with neither a page nor a command',
      (d) => void delete d.menus[0]!.page,
      'gives the menu entry "Reports" neither a page nor a command',
    ],
    [
      'menu entry with both a page and a command',
      (d) => Object.assign(d.menus[0]!, { command: './export', access: 'everyone' }),
      'gives the menu entry "Reports" both a page and a command',
    ],
    [
      'menu entry naming a page the declaration lacks',
      (d) => void (d.menus[0]!.page = 'Other'),
      'has the menu entry "Reports" open the page "Other", which it does not declare',
    ],
    [
      'command without access',
      (d) => void (d.menus = [{ menu: 'Data', label: 'Export', order: 70, command: './export' }]),
      'gives the command of the menu entry "Export" no access',
    ],
    [
      'menu entry access naming an unknown permission',
      (d) =>
        void (d.menus = [
          { menu: 'Data', label: 'Export', order: 70, command: './export', access: { permission: 'x' } },
        ]),
      'gives the menu entry "Export" the permission "x", which the server does not know',
    ],
    [
      'needed API capability the server does not provide',
      (d) => void (d.needs = { records: '^1', printing: '^1' }),
      'needs the API capability "printing", which the server does not provide',
    ],
    [
      'needed API capability at a version outside the range',
      (d) => void (d.needs = { records: '^2.0.0' }),
      'needs the API capability records ^2.0.0, the server provides 1.0.0',
    ],
    [
      'needed API capability with no range',
      (d) => void (d.needs = { records: 'soon' }),
      'gives the API capability records the range "soon", which is not one',
    ],
    [
      'extension into a slot nothing live renders',
      extension('sidebar.panel', 1, './Panel'),
      'puts the extension ./Panel into the slot "sidebar.panel", which nothing live renders',
    ],
    [
      'extension at another contract version than the slot is rendered at',
      extension('dashboard.tile', 2),
      'puts the extension ./Tile into dashboard.tile at contract 2, which is rendered at 1',
    ],
    [
      'a slot another live remote renders, claimed at another contract to let an extension through',
      (d) => {
        d.slots = { 'dashboard.tile': 2 };
        extension('dashboard.tile', 2)(d);
      },
      'renders the slot "dashboard.tile", which dashboard renders',
    ],
    [
      'a slot the shell renders',
      (d) => void (d.slots = { 'top-bar.item': 1 }),
      'renders the slot "top-bar.item", which the shell renders',
    ],
    [
      'extension access naming an unknown role',
      (d) =>
        void d.extensions.push({
          slot: 'dashboard.tile',
          contract: 1,
          module: './Tile',
          order: 1,
          access: { roles: ['guest'] },
        }),
      'gives the extension ./Tile the role "guest", which is not a role of the web console',
    ],
    [
      'a first call outside the API',
      page({ firstCalls: [{ path: 'api/../user/logout/' }] }),
      'asks on /Reports for the first call "api/../user/logout/", which is not a path of the API',
    ],
    [
      'a first call to another origin',
      page({ firstCalls: [{ path: '//elsewhere.example/api/' }] }),
      'asks on /Reports for the first call "//elsewhere.example/api/", which is not a path of the API',
    ],
    [
      'a first call needing a server feature the server does not know',
      page({ firstCalls: [{ path: 'api/reports/', feature: 'everything' }] }),
      'asks on /Reports for a first call needing the feature "everything", which the server does not know',
    ],
    [
      'a first call accepting values of a parameter it does not forward',
      page({ firstCalls: [{ path: 'api/reports/', forward: ['q'], accept: { kind: 'big' } }] }),
      'accepts on /Reports values of "kind" for the first call "api/reports/", which does not forward it',
    ],
    [
      'a first call accepting values by a pattern that is no regular expression',
      page({ firstCalls: [{ path: 'api/reports/', forward: ['kind'], accept: { kind: 'big|(' } }] }),
      'accepts on /Reports values of "kind" for the first call "api/reports/" by "big|(", which is not a regular expression',
    ],
  ])('the rule: %s', async (_rule, change, problem) => {
    const declaration = reports();
    change(declaration);
    const answer = await publish('reports', declaration);
    expect([answer.status, answer.body.detail]).toEqual([409, refusal(problem)]);
    expect((await api.superAdmin.get('registry/remotes/reports/')).body.versions).toEqual([]);
  });

  test('the rule: an exposed module named by its pages, commands or extensions that the build does not expose', async () => {
    const declaration = reports();
    declaration.menus.push({ menu: 'Data', label: 'Export', order: 70, command: './export', access: 'everyone' });
    declaration.extensions.push({
      slot: 'dashboard.tile',
      contract: 1,
      module: './Tile',
      order: 1,
      access: 'everyone',
    });
    const answer = await publish('reports', declaration, { exposes: ['./Reports'] });
    expect([answer.status, answer.body.detail]).toEqual([
      409,
      refusal(
        'does not expose ./export, which its remote.json names; does not expose ./Tile, which its remote.json names',
      ),
    ]);
  });

  test('every problem is named, joined by "; "', async () => {
    const declaration = reports();
    declaration.pages[0]!.access = { permission: 'fly' };
    declaration.needs = { records: '^3' };
    const answer = await publish('reports', declaration);
    expect(answer.body.detail).toBe(
      refusal(
        'gives the page /Reports the permission "fly", which the server does not know; needs the API capability records ^3, the server provides 1.0.0',
      ),
    );
  });

  test('the rule: remote.json missing, not JSON, not a declaration (its first problem named) or of another remote', async () => {
    const missing = await publish('reports', null);
    expect([missing.status, missing.body.detail]).toEqual([
      409,
      'The build has no remote.json: each version declares what it adds to the console.',
    ]);
    const text = await publish('reports', '{ "name": "reports",');
    expect([text.status, text.body.detail]).toEqual([409, 'remote.json is not JSON.']);
    const wrong = reports();
    (wrong.pages[0] as { path: string }).path = 'a/b';
    const schema = await publish('reports', wrong);
    expect(schema.status).toBe(409);
    expect(schema.body.detail).toMatch(/^remote\.json is not a remote's declaration: at \/pages\/0\/path, .+\.$/);
    const unknownField = await publish('reports', { ...reports(), colour: 'blue' } as RemoteDeclaration);
    expect(unknownField.body.detail).toMatch(/^remote\.json is not a remote's declaration: at \/colour, /);
    const other = await publish('reports', { ...reports(), name: 'summary' });
    expect([other.status, other.body.detail]).toEqual([409, 'remote.json declares "summary", not "reports".']);
  });
});

test('accepted: extensions into a slot the shell, a live remote or the declaration itself renders, at its contract', async () => {
  const declaration = reports();
  declaration.slots = { 'reports.section': 3 };
  declaration.extensions = [
    { slot: 'top-bar.item', contract: 1, module: './Badge', order: 1, access: 'everyone' },
    { slot: 'dashboard.tile', contract: 1, module: './Tile', order: 2, access: { permission: 'read-audit-trail' } },
    { slot: 'reports.section', contract: 3, module: './Section', order: 3, access: { roles: ['admin'] } },
  ];
  const answer = await publish('reports', declaration);
  expect(answer.status).toBe(201);
  const stored = await api.db.kysely
    .selectFrom('remote_versions')
    .select('declaration_json')
    .where('remote', '=', 'reports')
    .executeTakeFirstOrThrow();
  expect(JSON.parse(stored.declaration_json!)).toEqual(declaration);
});

test("the workspace's fields (devPort, title, exposes) are not kept with the version", async () => {
  const written = {
    ...reports(),
    name: 'workspace',
    devPort: 3999,
    title: 'Workspace',
    exposes: { './Reports': './src/x.tsx' },
  };
  written.pages[0]!.path = 'WorkspacePage';
  written.menus[0]!.page = 'WorkspacePage';
  expect((await publish('workspace', written)).status).toBe(201);
  const stored = await api.db.kysely
    .selectFrom('remote_versions')
    .select('declaration_json')
    .where('remote', '=', 'workspace')
    .executeTakeFirstOrThrow();
  expect(Object.keys(JSON.parse(stored.declaration_json!))).toEqual([
    'name',
    'pages',
    'menus',
    'extensions',
    'slots',
    'needs',
  ]);
});

describe('at promote and canary, checked again against the remotes served then', () => {
  let summaryLive: number;
  let takesPage: number;
  beforeAll(async () => {
    const summary = reports();
    summary.name = 'summary';
    summary.pages[0]!.path = 'Summary';
    summary.menus[0]!.page = 'Summary';
    summaryLive = (await publish('summary', summary)).body.version.version;
    expect((await post('summary', 'promote/', { version: summaryLive })).status).toBe(200);
    // Fine when published: /Totals is nobody's yet.
    const next = reports();
    next.name = 'summary';
    next.pages[0]!.path = 'Totals';
    next.menus[0]!.page = 'Totals';
    takesPage = (await publish('summary', next)).body.version.version;
    // Then another remote takes /totals live.
    const totals = reports();
    totals.name = 'totals';
    totals.pages[0]!.path = 'totals';
    totals.menus[0]!.page = 'totals';
    const published = await publish('totals', totals);
    expect(published.status).toBe(201);
    expect((await post('totals', 'promote/', { version: published.body.version.version })).status).toBe(200);
  });

  test('the rule: page path taken, at promote and at canary, 409 and the rollout unchanged', async () => {
    const problem = 'summary cannot run in this console: declares the page /Totals, which totals declares';
    const promoted = await post('summary', 'promote/', { version: takesPage });
    expect([promoted.status, promoted.body.detail]).toEqual([409, problem]);
    const canary = await post('summary', 'canary/', { version: takesPage, percent: 10 });
    expect([canary.status, canary.body.detail]).toEqual([409, problem]);
    expect((await api.superAdmin.get('registry/remotes/summary/')).body).toMatchObject({
      live: summaryLive,
      canary: null,
    });
  });

  test("a remote's own live version is no conflict: its next version may keep its pages", async () => {
    const same = reports();
    same.name = 'summary';
    same.pages[0]!.path = 'Summary';
    same.menus[0]!.page = 'Summary';
    same.menus[0]!.label = 'Summary';
    const published = await publish('summary', same);
    expect(published.status).toBe(201);
    const canary = await post('summary', 'canary/', { version: published.body.version.version, percent: 50 });
    expect(canary.status).toBe(200);
    // The canary's declaration counts as served: another remote may not take its page either.
    const rival = reports();
    rival.name = 'rival';
    rival.pages[0]!.path = 'summary';
    rival.menus[0]!.page = 'summary';
    const refused = await publish('rival', rival);
    expect(refused.body.detail).toBe(
      'rival cannot run in this console: declares the page /summary, which summary declares',
    );
    expect((await post('summary', 'canary/stop/')).status).toBe(200);
  });

  test('the rule: an extension whose slot no served remote renders any more', async () => {
    const tile = reports();
    tile.name = 'tiles';
    tile.pages = [];
    tile.menus = [];
    tile.extensions = [{ slot: 'reports.section', contract: 3, module: './Section', order: 1, access: 'everyone' }];
    // reports (published above with that slot) is not live: nothing renders it.
    const refused = await publish('tiles', tile);
    expect(refused.body.detail).toBe(
      'tiles cannot run in this console: puts the extension ./Section into the slot "reports.section", which nothing live renders',
    );
  });
});

describe('a version published before versions declared what they add', () => {
  let undeclared: number;
  let declared: number;
  beforeAll(async () => {
    const old = reports();
    old.name = 'legacy';
    old.pages[0]!.path = 'Legacy';
    old.menus[0]!.page = 'Legacy';
    undeclared = (await publish('legacy', old)).body.version.version;
    expect((await post('legacy', 'promote/', { version: undeclared })).status).toBe(200);
    // As migration 017 leaves a version published before it.
    await api.db.kysely
      .updateTable('remote_versions')
      .set({ declaration_json: null })
      .where('remote', '=', 'legacy')
      .execute();
    old.menus[0]!.label = 'Legacy v2';
    declared = (await publish('legacy', old)).body.version.version;
    expect((await post('legacy', 'promote/', { version: declared })).status).toBe(200);
  });

  test('cannot be promoted nor made the canary: 409, it has no remote.json', async () => {
    const message = `Version ${undeclared} of legacy has no remote.json: it was published before versions declared what they add. Publish a new build.`;
    const promoted = await post('legacy', 'promote/', { version: undeclared });
    expect([promoted.status, promoted.body.detail]).toEqual([409, message]);
    const canary = await post('legacy', 'canary/', { version: undeclared, percent: 20 });
    expect([canary.status, canary.body.detail]).toEqual([409, message]);
  });

  test('a rollback to it stays possible (no gate); live, it adds nothing', async () => {
    const rolledBack = await post('legacy', 'rollback/');
    expect(rolledBack.body).toMatchObject({ live: undeclared });
    const { pages } = (await (await fetch(`${api.url}/remotes.json`)).json()) as { pages: { path: string }[] };
    expect(pages.map((page) => page.path)).not.toContain('Legacy');
    // Nor does it count against others: another remote may now declare /Legacy.
    const other = reports();
    other.name = 'successor';
    other.pages[0]!.path = 'Legacy';
    other.menus[0]!.page = 'Legacy';
    expect((await publish('successor', other)).status).toBe(201);
  });
});
