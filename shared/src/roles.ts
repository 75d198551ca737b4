import REMOTES from './remotes.json';

// Roles and permissions (docs/screens.md#routes, docs/screens.md#server-side-rights): what the
// console shows, and the rules the server enforces with the same code (@veritas/shared/domain;
// the server's own predicates are in api/src/roles.ts).

export const ROLES = ['operators', 'executive', 'incharge', 'central_ops', 'admin', 'super_admin'] as const;

export type Role = (typeof ROLES)[number];

const ADMINS: readonly Role[] = ['admin', 'super_admin'];

/** admin and super_admin: the roles that upload, edit white labels, create groups and download the APK. */
export function isAdmin(role: Role | null): boolean {
  return role !== null && ADMINS.includes(role);
}

/** The name a role is shown under: field operators are "Wishmaster"s. */
export function roleLabel(role: Role | null): string {
  if (!role) return '';
  return role === 'operators' ? 'Wishmaster' : role;
}

type Remotes = typeof REMOTES;

/** The pages of the remotes (remotes.json), by route path. */
export type RemoteRouteName = { [R in keyof Remotes]: keyof Remotes[R]['pages'] & string }[keyof Remotes];

/** Who may open a page, as remotes.json names it. */
export const PAGE_AUDIENCES = { everyone: ROLES, admins: ADMINS } as const satisfies Record<string, readonly Role[]>;

/**
 * The pages the shell renders itself, by route path: Deployments stays reachable when a remote is
 * broken, so a bad release can always be rolled back (docs/screens.md#deployments).
 */
export const SHELL_PAGES = {
  Deployments: { title: 'Deployments', roles: 'admins' },
} as const satisfies Record<string, { title: string; roles: keyof typeof PAGE_AUDIENCES }>;

/** Every page of the protected layout, by route path: the remotes' pages and the shell's own. */
export type RouteName = RemoteRouteName | keyof typeof SHELL_PAGES;

/** Every page of the protected layout with the roles that may open it. */
export const ROUTE_ROLES = Object.fromEntries(
  [...Object.values(REMOTES).flatMap((remote) => Object.entries(remote.pages)), ...Object.entries(SHELL_PAGES)].map(
    ([route, page]) => [route, PAGE_AUDIENCES[page.roles as keyof typeof PAGE_AUDIENCES] ?? []],
  ),
) as Record<RouteName, readonly Role[]>;

/** Whether `role` may open `route` ('Upload' or '/Upload'). Unknown routes and a missing role get only what every role gets. */
export function canAccessRoute(role: Role | null, route: string): boolean {
  const name = route.replace(/^\/+|\/+$/g, '');
  if (!Object.hasOwn(ROUTE_ROLES, name)) return false;
  const allowed: readonly Role[] = ROUTE_ROLES[name as RouteName];
  return role ? allowed.includes(role) : allowed === ROLES;
}

export type MenuName = 'Data' | 'User Management';

/** A menu entry that runs something instead of opening a page (the shell maps it to the data remote). */
export type MenuCommand = 'downloadApk';

export type MenuItem =
  | { menu: MenuName; label: string; route: RouteName }
  | { menu: MenuName; label: string; action: MenuCommand; roles: readonly Role[] };

/** The items of the two top-bar menus, in display order (docs/screens.md#data-menu, docs/screens.md#user-management-menu). */
export const MENU_ITEMS: readonly MenuItem[] = [
  { menu: 'Data', label: 'Upload', route: 'Upload' },
  { menu: 'Data', label: 'Download APK', action: 'downloadApk', roles: ADMINS },
  { menu: 'Data', label: 'White Label', route: 'WhiteLabel' },
  { menu: 'Data', label: 'Download', route: 'Download' },
  { menu: 'Data', label: 'Stats', route: 'ListDevices' },
  { menu: 'User Management', label: 'Create User', route: 'createuser' },
  { menu: 'User Management', label: 'Deactivate User', route: 'Deactivateuser' },
  { menu: 'User Management', label: 'Audit Log', route: 'AuditLog' },
];

/** The items of `menu` that `role` sees. */
export function menuItems(menu: MenuName, role: Role | null): MenuItem[] {
  return MENU_ITEMS.filter(
    (item) =>
      item.menu === menu &&
      ('route' in item ? canAccessRoute(role, item.route) : role !== null && item.roles.includes(role)),
  );
}

const ASSIGNABLE: Partial<Record<Role, readonly Role[]>> = {
  incharge: ['executive', 'operators'],
  central_ops: ['incharge', 'executive'],
  admin: ['operators', 'executive', 'incharge', 'central_ops'],
  super_admin: ['operators', 'executive', 'incharge', 'central_ops'],
};

/** The roles a user of `creatorRole` may give to a new user; nobody can create a super_admin. */
export function assignableRoles(creatorRole: Role | null): Role[] {
  return [...((creatorRole && ASSIGNABLE[creatorRole]) || [])];
}

/** Whether `actor` may give `target` to a new user, and (de)activate or reset users of that role. */
export function canAssignRole(actor: Role | null, target: Role): boolean {
  return assignableRoles(actor).includes(target);
}

/** The create-group form is for admin and super_admin. */
export function canCreateGroup(role: Role | null): boolean {
  return isAdmin(role);
}

/** Deleting a user is for super_admin only (activate/deactivate are open to whoever reaches the screen). */
export function canDeleteUser(role: Role | null): boolean {
  return role === 'super_admin';
}

/**
 * Why the signed-in user may not (de)activate or delete `target`, or null when they may: never
 * oneself, and (de)activation only of roles the actor may assign (the server's rule,
 * docs/screens.md#server-side-rights; admins list users they cannot change).
 */
export function userActionRefusal(
  action: 'toggle' | 'delete',
  actor: { user: string | null; role: Role | null },
  target: { username: string; role: Role },
): string | null {
  if (target.username === actor.user) return 'You cannot change your own account';
  if (action === 'delete') return canDeleteUser(actor.role) ? null : 'Only super_admin can delete users';
  return canAssignRole(actor.role, target.role)
    ? null
    : `Your role cannot manage users with the role ${roleLabel(target.role)}`;
}

/** The "All Hubs" choice of every hub filter (the dashboard's URL says ?hub=all). */
export const ALL_HUBS = 'all';

/** The hub the dashboard opens on: admins see all hubs, others their own hub (lower-cased), or all without one. */
export function dashboardStartHub(role: Role | null, hubCode: string | null): string {
  if (isAdmin(role)) return ALL_HUBS;
  return hubCode ? hubCode.toLowerCase() : ALL_HUBS;
}
