// The pure rules under the composition (src/registry/composition.ts, page-document.ts,
// declarations.ts), without a server: who may access what, which pages are unavailable, the page
// document's status and its inlined JSON, and what a declaration names.
import type { Composition, RemoteDeclaration } from '@veritas/shared/domain';
import { CONSOLE_ROLES, ROLES } from '@veritas/shared/domain';
import { compose, mayAccess, unavailablePages } from '../src/registry/composition';
import { declarationProblems, modulesNamedBy } from '../src/registry/declarations';
import { inlineComposition, pageStatus } from '../src/registry/page-document';
import { WORKSPACE_DECLARATIONS } from './support/registry';

const declaring = (name: string, ...paths: string[]): RemoteDeclaration => ({
  name,
  pages: paths.map((path) => ({ path, module: `./${path}`, title: path, access: 'everyone' })),
  menus: [],
  extensions: [],
  slots: {},
  needs: {},
});

test("mayAccess: 'everyone' is every console role and nobody signed in; roles and permissions need a role", () => {
  for (const role of CONSOLE_ROLES) expect(mayAccess('everyone', role)).toBe(true);
  expect(mayAccess('everyone', null)).toBe(true);
  expect(mayAccess('everyone', 'operators')).toBe(false);
  expect(ROLES.filter((role) => mayAccess({ roles: ['incharge', 'admin'] }, role))).toEqual(['incharge', 'admin']);
  expect(mayAccess({ roles: ['admin'] }, null)).toBe(false);
  expect(ROLES.filter((role) => mayAccess({ permission: 'upload-shipments' }, role))).toEqual(['admin', 'super_admin']);
  expect(mayAccess({ permission: 'upload-shipments' }, null)).toBe(false);
  expect(mayAccess({ permission: 'toString' }, 'super_admin')).toBe(false);
});

test('compose: an extension goes in only at the contract its slot is rendered with, by the shell or a version served', () => {
  const host = { ...declaring('host', 'Host'), slots: { 'dashboard.tile': 2 } };
  const guest: RemoteDeclaration = {
    ...declaring('guest'),
    extensions: [
      { slot: 'dashboard.tile', contract: 2, module: './Now', order: 1, access: 'everyone' },
      { slot: 'dashboard.tile', contract: 1, module: './Before', order: 2, access: 'everyone' },
      { slot: 'top-bar.item', contract: 1, module: './Badge', order: 3, access: 'everyone' },
      { slot: 'top-bar.item', contract: 9, module: './Later', order: 4, access: 'everyone' },
      { slot: 'device-details.section', contract: 1, module: './Unrendered', order: 5, access: 'everyone' },
    ],
  };
  const served = (declarations: RemoteDeclaration[]) =>
    declarations.map((declaration) => ({ remote: declaration.name, entry: { entry: '/x' }, declaration }));
  const modules = (declarations: RemoteDeclaration[]) =>
    compose({ username: 'asha', role: 'admin' }, served(declarations), []).extensions.map((e) => e.module);
  expect(modules([host, guest])).toEqual(['./Now', './Badge']);
  // The host rolled back to a version rendering the slot at contract 1.
  expect(modules([{ ...host, slots: { 'dashboard.tile': 1 } }, guest])).toEqual(['./Before', './Badge']);
});

test('unavailablePages: declared by a stored version, by no served one; case-insensitive, once, sorted', () => {
  const stored = [declaring('a', 'Old', 'Kept'), declaring('a', 'old', 'Gone'), declaring('b', 'kept')];
  expect(unavailablePages(stored, [declaring('a', 'KEPT')])).toEqual(['Gone', 'Old']);
  expect(unavailablePages([], [])).toEqual([]);
});

test("pageStatus: 403 for a signed-in viewer without the page (the shell's Deployments too), 404 for an unavailable one, else 200", () => {
  const composition = (viewer: string | null, pages: string[], unavailable: string[] = []): Composition => ({
    viewer,
    remotes: {},
    pages: pages.map((path) => ({ path, remote: 'r', module: `./${path}`, title: path })),
    menus: [],
    extensions: [],
    unavailable,
    home: null,
    features: [],
  });
  const servedPages = new Set(['upload', 'download']);
  const roleOf = (viewer: string | null) => (viewer === null ? null : viewer === 'admin' ? 'admin' : 'executive');
  const status = (path: string, c: Composition) =>
    pageStatus(path, { composition: c, role: roleOf(c.viewer), servedPages });
  expect(status('/Upload', composition('exec', ['Download']))).toBe(403);
  expect(status('/UPLOAD/', composition('exec', ['Download']))).toBe(403);
  expect(status('/Upload', composition('admin', ['Upload', 'Download']))).toBe(200);
  expect(status('/Upload', composition(null, ['Download']))).toBe(200);
  expect(status('/Gone', composition(null, [], ['Gone']))).toBe(404);
  expect(status('/gone/', composition('admin', [], ['Gone']))).toBe(404);
  for (const path of ['/', '/login', '/nothing', '/Upload/deeper', '/%E0%A4%A']) {
    expect([path, status(path, composition('exec', []))]).toEqual([path, 200]);
  }
  expect(status('/Deployments', composition('exec', []))).toBe(403);
  expect(status('/deployments/', composition('exec', []))).toBe(403);
  expect(status('/Deployments', composition('admin', []))).toBe(200);
  expect(status('/Deployments', composition(null, []))).toBe(200);
});

test('inlineComposition: one JSON element before the last </head>, every < escaped, read back the same', () => {
  const composition: Composition = {
    viewer: '<b>',
    remotes: {},
    pages: [{ path: 'X', remote: 'r', module: './X', title: '</script><!-- <script>' }],
    menus: [],
    extensions: [],
    unavailable: [],
    home: null,
    features: [],
  };
  const html = inlineComposition('<html><HEAD><title>t</title></HEAD><body></body></html>', composition);
  const [, json] =
    /<HEAD><title>t<\/title><script type="application\/json" id="veritas-composition">(.*)<\/script><\/HEAD>/.exec(
      html,
    )!;
  expect(json).not.toContain('<');
  expect(JSON.parse(json!)).toEqual(composition);
});

test("modulesNamedBy: its pages', commands' and extensions' modules, once each", () => {
  const declaration = declaring('r', 'A', 'B');
  declaration.pages[1]!.module = './A';
  declaration.menus.push({ menu: 'Data', label: 'Run', order: 1, command: './run', access: 'everyone' });
  declaration.extensions.push({ slot: 'top-bar.item', contract: 1, module: './Badge', order: 1, access: 'everyone' });
  expect(modulesNamedBy(declaration)).toEqual(['./A', './run', './Badge']);
});

test("the workspace's declarations fit this server beside each other", () => {
  const all = Object.values(WORKSPACE_DECLARATIONS);
  for (const declaration of all) {
    const others = all
      .filter((other) => other !== declaration)
      .map((other) => ({ remote: other.name, declaration: other }));
    expect([declaration.name, declarationProblems(declaration, others)]).toEqual([declaration.name, []]);
  }
});

test('declarationProblems: one home page among the served versions, open to everyone', () => {
  const home = (name: string, ...paths: string[]): RemoteDeclaration => {
    const declaration = declaring(name, ...paths);
    for (const page of declaration.pages) page.home = true;
    return declaration;
  };
  expect(declarationProblems(home('start', 'Start'), [])).toEqual([]);
  expect(declarationProblems(home('start', 'Start', 'Begin'), [])).toEqual([
    'declares /Begin the home page, which its /Start is',
  ]);
  expect(declarationProblems(home('start', 'Start'), [{ remote: 'desk', declaration: home('desk', 'Desk') }])).toEqual([
    "declares /Start the home page, which desk's /Desk is",
  ]);
  const forAdmins = home('start', 'Start');
  forAdmins.pages[0]!.access = { roles: ['admin'] };
  expect(declarationProblems(forAdmins, [])).toEqual(['declares the home page /Start open to fewer than everyone']);
});

test('compose: the home is the page declared home, for every viewer; null while none is served', () => {
  const served = (declarations: RemoteDeclaration[]) =>
    declarations.map((declaration) => ({ remote: declaration.name, entry: { entry: '/x' }, declaration }));
  const start = declaring('start', 'Start', 'Other');
  start.pages[0]!.home = true;
  for (const viewer of [null, { username: 'asha', role: 'executive' as const }]) {
    expect(compose(viewer, served([declaring('desk', 'Desk'), start]), []).home).toBe('Start');
  }
  expect(compose(null, served([declaring('desk', 'Desk')]), []).home).toBeNull();
});

test("the workspace's home page is the Dashboard, where the spec's sign-in leads", () => {
  const homes = Object.values(WORKSPACE_DECLARATIONS).flatMap((declaration) =>
    declaration.pages.filter((page) => page.home).map((page) => `${declaration.name}/${page.path}`),
  );
  expect(homes).toEqual(['dashboard/Dashboard']);
});

test("declarationProblems: a first call's path is one of the API (under api/, plain segments), whatever else it asks", () => {
  const withFirstCall = (path: string): RemoteDeclaration => {
    const declaration = declaring('reports', 'Reports');
    declaration.pages[0]!.firstCalls = [{ path, forward: ['q'], params: { limit: '10' }, feature: 'device-pages' }];
    return declaration;
  };
  for (const path of ['api/devices/', 'api/devices/count/', 'api/reports']) {
    expect([path, declarationProblems(withFirstCall(path), [])]).toEqual([path, []]);
  }
  for (const path of [
    'api/',
    'user/logout/',
    '/api/devices/',
    'api//devices/',
    'api/../user/',
    'api/devices/?all=1',
    'https://elsewhere.example/api/x/',
  ]) {
    expect([path, declarationProblems(withFirstCall(path), [])]).toEqual([
      path,
      [`asks on /Reports for the first call "${path}", which is not a path of the API`],
    ]);
  }
});
