// Who may do what (CONTRACT.md "Roles on the server"). Every permission check uses this module.

export const ROLES = ['operators', 'executive', 'incharge', 'central_ops', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

const ASSIGNABLE: Record<Role, readonly Role[]> = {
  operators: [],
  executive: [],
  incharge: ['executive', 'operators'],
  central_ops: ['incharge', 'executive'],
  admin: ['operators', 'executive', 'incharge', 'central_ops'],
  super_admin: ['operators', 'executive', 'incharge', 'central_ops'],
};

/** Roles the given role may give to a new user, and whose users it may activate or deactivate. */
export function assignableRoles(role: string): readonly Role[] {
  return isRole(role) ? ASSIGNABLE[role] : [];
}

export function canAssign(creator: string, target: string): boolean {
  return assignableRoles(creator).includes(target as Role);
}

const isAdmin = (role: string) => role === 'admin' || role === 'super_admin';

/** Field staff use the mobile app; the web console refuses them. */
export const canUseWeb = (role: string) => role !== 'operators';
export const canCreateGroup = isAdmin;
export const canUpload = isAdmin;
export const canEditWhiteLabels = isAdmin;
export const canDownloadApk = isAdmin;
/** Admins see every user; other roles see the users whose role they may assign. */
export const canListAllUsers = isAdmin;
export const canManageUser = (actor: string, targetRole: string) => canAssign(actor, targetRole);
export const canDeleteUser = (role: string) => role === 'super_admin';
