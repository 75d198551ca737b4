// What each role may do on the server (docs/screens.md#server-side-rights). The rules the console
// applies too (assignable roles, creating groups, deleting users, who counts as an admin) are
// @veritas/shared's and imported from there; these are the server's only.
import { canAssignRole, isAdmin, type Role } from '@veritas/shared/domain';

/** Field staff use the mobile app; the web console refuses them. */
export const canUseWeb = (role: Role) => role !== 'operators';
export const canUpload = isAdmin;
export const canEditWhiteLabels = isAdmin;
export const canDownloadApk = isAdmin;
/** Admins see every user; other roles see the users whose role they may assign. */
export const canListAllUsers = isAdmin;
/** Whether `viewer` sees a user of `role` (user/get_users/, the event stream's users events). */
export const canSeeUser = (viewer: Role, role: Role) => canListAllUsers(viewer) || canAssignRole(viewer, role);
/** (De)activating a user and resetting their password: users of a role the actor may assign. */
export const canManageUser = (actor: Role, targetRole: Role) => canAssignRole(actor, targetRole);
/** Publishing and rolling out remotes from the console (a deploy token may too, for its remotes). */
export const canDeploy = isAdmin;
/** The audit trail's screen and calls; verifying its chain is a super admin's. */
export const canReadAuditLog = isAdmin;
export const canVerifyAuditLog = (role: Role) => role === 'super_admin';
/** Deploy tokens and the origins of external builds. */
export const canManageDeployAccess = (role: Role) => role === 'super_admin';

/**
 * The permissions a remote's declaration may name as a page's, menu entry's or extension's access
 * (`{ "permission": "upload-shipments" }`), each the server's own rule: what the server refuses a
 * role, the console does not offer it. The registry refuses a declaration naming another.
 */
export const PERMISSIONS: Readonly<Record<string, (role: Role) => boolean>> = {
  'upload-shipments': canUpload,
  'edit-white-labels': canEditWhiteLabels,
  'download-apk': canDownloadApk,
  'read-audit-trail': canReadAuditLog,
  'deploy-remotes': canDeploy,
};
