// The console's composition for a viewer (docs/deploying-a-remote.md#what-the-console-loads): where
// each remote loads from, and the pages, menu entries and extensions of the versions this viewer
// is served, kept to what the viewer may open or see. GET /remotes.json answers it, and the page
// document carries it inlined (src/registry/page-document.ts).
import {
  CONSOLE_ROLES,
  SHELL_MENUS,
  SHELL_SLOTS,
  type Access,
  type ComposedExtension,
  type ComposedMenuEntry,
  type ComposedPage,
  type Composition,
  type RemoteDeclaration,
  type Role,
  type ServerFeature,
} from '@veritas/shared/domain';
import type { Db } from '../db/schema';
import { PERMISSIONS } from '../auth/rights';
import { findStoredDeclarations } from './repository';
import { servedVersions, type ServedRemote } from './serving';
import { storedDeclaration } from './versions';

/** Who the composition is for: the signed-in user, or null (nobody signed in). */
export type Viewer = { username: string; role: Role } | null;

/**
 * Whether a viewer of `role` may open, see or get what `access` guards: 'everyone' is every role
 * of the web console and nobody signed in (null); roles, those named; a permission, the server's
 * rule of that name (src/auth/rights.ts PERMISSIONS). Nobody signed in gets 'everyone' only.
 */
export function mayAccess(access: Access, role: Role | null): boolean {
  if (access === 'everyone') return role === null || CONSOLE_ROLES.includes(role);
  if (role === null) return false;
  if ('roles' in access) return (access.roles as readonly string[]).includes(role);
  return Object.hasOwn(PERMISSIONS, access.permission) && PERMISSIONS[access.permission]!(role);
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The composition for `viewer` of the versions it is served (`served`, one per remote with a live
 * version, its declaration null when it has none), with the page paths no served version declares
 * any more (`unavailable`). Pure: the tests compose declarations without a database.
 */
export function compose(
  viewer: Viewer,
  served: readonly ServedRemote[],
  unavailable: readonly string[],
  features: readonly ServerFeature[] = [],
): Composition {
  const role = viewer?.role ?? null;
  const pages: ComposedPage[] = [];
  let home: string | null = null;
  const menus: (ComposedMenuEntry & { order: number })[] = [];
  const extensions: (ComposedExtension & { order: number })[] = [];
  // The slots rendered by the shell and the versions served, at their contract versions: an
  // extension goes in only at the contract its slot is rendered with (a rollback of the page that
  // renders it may change that).
  const rendered = new Set(Object.entries(SHELL_SLOTS).map(([slot, contract]) => `${slot} ${contract}`));
  for (const { declaration } of served) {
    for (const [slot, contract] of Object.entries(declaration?.slots ?? {})) rendered.add(`${slot} ${contract}`);
  }
  for (const { remote, declaration } of served) {
    if (!declaration) continue;
    const pageAccess = new Map(declaration.pages.map((page) => [page.path, page.access]));
    for (const page of declaration.pages) {
      if (!mayAccess(page.access, role)) continue;
      // The registry lets one served page be the home (declarationProblems); the first counts.
      if (page.home && home === null) home = page.path;
      pages.push({
        path: page.path,
        remote,
        module: page.module,
        title: page.title,
        ...(page.firstCalls === undefined ? {} : { firstCalls: page.firstCalls }),
      });
    }
    for (const entry of declaration.menus) {
      const access = entry.access ?? (entry.page === undefined ? undefined : pageAccess.get(entry.page));
      if (access === undefined || !mayAccess(access, role)) continue;
      menus.push({
        menu: entry.menu,
        label: entry.label,
        remote,
        ...(entry.page === undefined ? {} : { page: entry.page }),
        ...(entry.command === undefined ? {} : { command: entry.command }),
        order: entry.order,
      });
    }
    for (const extension of declaration.extensions) {
      if (!mayAccess(extension.access, role) || !rendered.has(`${extension.slot} ${extension.contract}`)) continue;
      extensions.push({ slot: extension.slot, remote, module: extension.module, order: extension.order });
    }
  }
  const menuIndex = (menu: string) => {
    const index = (SHELL_MENUS as readonly string[]).indexOf(menu);
    return index === -1 ? SHELL_MENUS.length : index;
  };
  menus.sort((a, b) => menuIndex(a.menu) - menuIndex(b.menu) || a.order - b.order || byText(a.label, b.label));
  extensions.sort(
    (a, b) => a.order - b.order || byText(a.slot, b.slot) || byText(a.remote, b.remote) || byText(a.module, b.module),
  );
  return {
    viewer: viewer?.username ?? null,
    remotes: Object.fromEntries(served.map((remote) => [remote.remote, remote.entry])),
    pages,
    menus: menus.map(({ order: _order, ...entry }) => entry),
    extensions: extensions.map(({ order: _order, ...extension }) => extension),
    unavailable: [...unavailable],
    home,
    features: [...features],
  };
}

/**
 * The page paths `stored` declare (every version kept, of every remote) that none of `served`
 * declares (every live and canary version): pages that were and are no more. Compared
 * case-insensitively, each once, in the spelling first met, sorted.
 */
export function unavailablePages(stored: readonly RemoteDeclaration[], served: readonly RemoteDeclaration[]): string[] {
  const servedPaths = new Set(
    served.flatMap((declaration) => declaration.pages.map((page) => page.path.toLowerCase())),
  );
  const gone = new Map<string, string>();
  for (const declaration of stored) {
    for (const { path } of declaration.pages) {
      const key = path.toLowerCase();
      if (!servedPaths.has(key) && !gone.has(key)) gone.set(key, path);
    }
  }
  return [...gone.values()].sort(byText);
}

/** What the page document needs beside the composition: the pages any served version declares. */
export interface ComposedView {
  composition: Composition;
  /** The signed-in viewer's role, or null: the server's check of the shell's own pages. */
  role: Role | null;
  /** The paths of the pages declared by any version served to anyone (live or canary), lower-cased. */
  servedPages: ReadonlySet<string>;
}

/** Where the composition comes from: the registry, or a fixed list (REMOTES_JSON) with the workspace's declarations. */
export type CompositionSource = (
  { db: Db } | { staticRemotes: Record<string, string>; staticDeclarations: readonly RemoteDeclaration[] }
) & {
  /** The server's features (docs/architecture.md#server-features), told with the composition. */
  features?: readonly ServerFeature[];
};

/**
 * The composition for `viewer`, whose canary share `bucket` names (the viewer cookie, or the
 * signed-in user's name): from the registry's live and canary versions, or from the fixed list.
 */
export async function compositionFor(
  source: CompositionSource,
  viewer: Viewer,
  bucket: string | undefined,
): Promise<ComposedView> {
  const features = source.features ?? [];
  if (!('db' in source)) {
    const byName = new Map(source.staticDeclarations.map((declaration) => [declaration.name, declaration]));
    const served = Object.entries(source.staticRemotes)
      .map(([remote, entry]) => ({ remote, entry: { entry }, declaration: byName.get(remote) ?? null }))
      .sort((a, b) => byText(a.remote, b.remote));
    return {
      composition: compose(viewer, served, [], features),
      role: viewer?.role ?? null,
      servedPages: pathsOf(served.map((s) => s.declaration)),
    };
  }
  const { kysely } = source.db;
  const [served, stored] = await Promise.all([servedVersions(kysely, bucket), findStoredDeclarations(kysely)]);
  const servedDeclarations = served.all.map((remote) => remote.declaration);
  const unavailable = unavailablePages(
    stored.flatMap((row) => storedDeclaration(row) ?? []),
    servedDeclarations,
  );
  return {
    composition: compose(viewer, served.remotes, unavailable, features),
    role: viewer?.role ?? null,
    servedPages: pathsOf(servedDeclarations),
  };
}

function pathsOf(declarations: readonly (RemoteDeclaration | null)[]): Set<string> {
  return new Set(
    declarations.flatMap((declaration) => declaration?.pages.map((page) => page.path.toLowerCase()) ?? []),
  );
}
