// The console the workspace's remotes compose (their remote.json files, as
// scripts/workspace-remotes.cjs reads them) is the one docs/screens.md describes: its route table
// ("## Routes": each page, its remote module and the roles that may open it) and its two menus
// ("### Data menu", "### User Management menu": the items in order, what each opens and who sees
// it), composed for every role of the web console; and the slots docs/architecture.md lists are
// those of @veritas/shared, each rendered where it says.
import fs from 'node:fs';
import path from 'node:path';
import {
  CONSOLE_ROLES,
  SHELL_ROUTES,
  SHELL_SLOTS,
  SLOT_CONTRACTS,
  canOpenDeployments,
  type Role,
} from '@veritas/shared/domain';
import { compose } from '../src/registry/composition';
import { WORKSPACE_DECLARATIONS } from './support/registry';

const readDoc = (name: string) => fs.readFileSync(path.join(__dirname, '../../docs', name), 'utf8');
const screens = readDoc('screens.md');

/** The first table under the heading `heading` of screens.md (or `text`): its rows as cells, without the header. */
function tableUnder(heading: string, text = screens): string[][] {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) throw new Error(`docs has no heading "${heading}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  // The header and the line under it.
  return rows.slice(2);
}

/** "every role", or roles written as `a, b`. */
function rolesOf(cell: string): Role[] {
  if (cell === 'every role') return [...CONSOLE_ROLES];
  return cell.split(',').map((role) => role.trim() as Role);
}

const unquote = (cell: string) => cell.replace(/`/g, '');

/** The composition of every workspace remote for a user of `role`. */
const composed = (role: Role) =>
  compose(
    { username: `a ${role}`, role },
    Object.values(WORKSPACE_DECLARATIONS).map((declaration) => ({
      remote: declaration.name,
      entry: { entry: `/remotes/${declaration.name}/mf-manifest.json` },
      declaration,
    })),
    [],
  );

const ROUTES = tableUnder('## Routes').map(([route = '', _title, module = '', roles = '']) => ({
  path: unquote(route).replace(/^\//, ''),
  module: unquote(module),
  roles: roles,
}));

test('the route table is parsed: every remote page and the shell routes', () => {
  expect(ROUTES.length).toBeGreaterThanOrEqual(10);
  expect(ROUTES.filter((route) => route.module === '(shell)').map((route) => route.path)).toEqual([
    'login',
    '',
    'Deployments',
  ]);
});

test("the shell's routes are its own: no remote declares them; Deployments is for admin and super_admin", () => {
  for (const route of ROUTES.filter((r) => r.module === '(shell)' && r.path !== '')) {
    expect((SHELL_ROUTES as readonly string[]).map((r) => r.toLowerCase())).toContain(route.path.toLowerCase());
  }
  const deployments = ROUTES.find((route) => route.path === 'Deployments')!;
  expect(CONSOLE_ROLES.filter(canOpenDeployments)).toEqual(rolesOf(deployments.roles));
});

describe.each([...CONSOLE_ROLES])('for the role %s', (role) => {
  const composition = composed(role);

  test('the pages it may open are the routes of the table that name it, at their remote module', () => {
    const expected = ROUTES.filter((route) => route.module !== '(shell)' && rolesOf(route.roles).includes(role))
      .map((route) => `/${route.path} ${route.module}`)
      .sort();
    const pages = composition.pages.map((page) => `/${page.path} ${page.remote}/${page.module.replace(/^\.\//, '')}`);
    expect(pages.sort()).toEqual(expected);
  });

  test.each(['Data', 'User Management'])(
    'the %s menu: the items the table shows it, in order, each opening its page',
    (menu) => {
      const items = tableUnder(`### ${menu} menu`)
        .filter(([, , shownTo = '']) => rolesOf(shownTo).includes(role))
        .map(([label = '', does = '']) => {
          const page = /^opens `\/([^`]+)`$/.exec(does)?.[1];
          return page === undefined ? { label, command: true } : { label, page };
        });
      const entries = composition.menus
        .filter((entry) => entry.menu === menu)
        .map((entry) =>
          entry.page === undefined ? { label: entry.label, command: true } : { label: entry.label, page: entry.page },
        );
      expect(entries).toEqual(items);
    },
  );
});

test('every menu of the composition is one the tables describe', () => {
  const all = composed('super_admin');
  expect([...new Set(all.menus.map((entry) => entry.menu))]).toEqual(['Data', 'User Management']);
});

test("architecture.md's table of slots is SLOT_CONTRACTS, each rendered by the shell or the remote it names", () => {
  const rows = tableUnder('## Adding an extension', readDoc('architecture.md')).map(
    ([slot = '', by = '', props = '', contract = '']) => ({
      slot: unquote(slot),
      by: by.split(',')[0]!.trim(),
      props: unquote(props),
      contract: Number(contract),
    }),
  );
  expect(Object.fromEntries(rows.map((row) => [row.slot, row.contract]))).toEqual(SLOT_CONTRACTS);
  for (const row of rows) {
    const renderers = [
      ...(row.slot in SHELL_SLOTS ? [`the shell ${SHELL_SLOTS[row.slot as keyof typeof SHELL_SLOTS]}`] : []),
      ...Object.values(WORKSPACE_DECLARATIONS)
        .filter((declaration) => row.slot in declaration.slots)
        .map((declaration) => `${declaration.name} ${declaration.slots[row.slot]}`),
    ];
    expect([row.slot, renderers]).toEqual([row.slot, [`${row.by} ${row.contract}`]]);
  }
});
