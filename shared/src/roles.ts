// Roles (docs/screens.md#roles, docs/screens.md#server-side-rights): what the console shows, and
// the rules the server enforces with the same code (@veritas/shared/domain; the server's own
// predicates and named permissions are in api/src/auth/rights.ts). Who may open each page is declared by
// the remote that owns it (docs/architecture.md#composition).

export const ROLES = ['operators', 'executive', 'incharge', 'central_ops', 'admin', 'super_admin'] as const;

export type Role = (typeof ROLES)[number];

const ADMINS: readonly Role[] = ['admin', 'super_admin'];

/** admin and super_admin: the roles that upload, edit white labels, create groups and download the APK. */
export function isAdmin(role: Role | null): boolean {
  return role !== null && ADMINS.includes(role);
}

/** The longest username: user/create/ takes none longer, nor does anything that names a user. */
export const MAX_USERNAME_LENGTH = 150;

/** The name a role is shown under: field operators are "Wishmaster"s. */
export function roleLabel(role: Role | null): string {
  if (!role) return '';
  return role === 'operators' ? 'Wishmaster' : role;
}

/** Every role that may sign in to the web console ("everyone" of a remote's declaration). */
export const CONSOLE_ROLES: readonly Role[] = ROLES.filter((role) => role !== 'operators');

/** The shell's own Deployments page (docs/screens.md#deployments) is for admin and super_admin. */
export const canOpenDeployments = isAdmin;

/** Deploy tokens and the origins of external builds (the Deployments page's lower sections). */
export const canManageDeployAccess = (role: Role | null): boolean => role === 'super_admin';

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

/** Deleting a user is for super_admin only; (de)activating and resetting one follow canAssignRole. */
export function canDeleteUser(role: Role | null): boolean {
  return role === 'super_admin';
}

/** A users' action: `toggle` (de)activates a user or resets their password, `delete` deletes them. */
export type UserActionKind = 'toggle' | 'delete';

/** The refusals of a users' action (docs/errors.md#deactivate-users): the server's answers, the console's tooltips. */
export const OWN_ACCOUNT_REFUSAL = 'You cannot change your own account';
export const DELETE_USERS_REFUSAL = 'Only a super admin can delete users.';
export const roleNotManagedRefusal = (role: Role): string =>
  `Your role cannot manage users with the role ${roleLabel(role)}`;

/**
 * Why `actorRole` may not act on a user of `targetRole`, or null when it may: deletion is
 * super_admin's, the rest only of roles the actor may assign (docs/screens.md#server-side-rights;
 * admins list users they cannot change). Oneself is refused before (OWN_ACCOUNT_REFUSAL).
 */
export function userRoleRefusal(action: UserActionKind, actorRole: Role | null, targetRole: Role): string | null {
  if (action === 'delete') return canDeleteUser(actorRole) ? null : DELETE_USERS_REFUSAL;
  return canAssignRole(actorRole, targetRole) ? null : roleNotManagedRefusal(targetRole);
}

/** Why the signed-in user may not act on `target`, or null when they may: never oneself, then userRoleRefusal. */
export function userActionRefusal(
  action: UserActionKind,
  actor: { user: string | null; role: Role | null },
  target: { username: string; role: Role },
): string | null {
  if (target.username === actor.user) return OWN_ACCOUNT_REFUSAL;
  return userRoleRefusal(action, actor.role, target.role);
}

/** The "All Hubs" choice of every hub filter (the dashboard's URL says ?hub=all). */
export const ALL_HUBS = 'all';

/** The hub the dashboard opens on: admins see all hubs, others their own hub (lower-cased), or all without one. */
export function dashboardStartHub(role: Role | null, hubCode: string | null): string {
  if (isAdmin(role)) return ALL_HUBS;
  return hubCode ? hubCode.toLowerCase() : ALL_HUBS;
}
