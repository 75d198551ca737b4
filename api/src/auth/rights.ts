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
/** The Integrations screen: API keys (docs/integrations.md#who). */
export const canManageIntegrations = isAdmin;

/** Who looks at cases: a role and the group (hub or return centre) it works for. */
export interface CaseViewer {
  role: Role;
  groupCode: string | null;
}
/** central_ops, admin and super_admin work every queue (docs/screens.md#cases-rights). */
export const worksAllCases = (role: Role) => role === 'central_ops' || isAdmin(role);
/** The Cases screens: every console role; incharge and executive see their group's queue only. */
export const canReadCases = (role: Role) => worksAllCases(role) || role === 'incharge' || role === 'executive';
const ownQueue = (viewer: CaseViewer, queue: string) =>
  viewer.groupCode !== null && viewer.groupCode.toUpperCase() === queue.toUpperCase();
/** Reading a case of `queue`. */
export const canReadCase = (viewer: CaseViewer, queue: string) =>
  worksAllCases(viewer.role) || (canReadCases(viewer.role) && ownQueue(viewer, queue));
/** Assigning, reviewing, resolving and reopening a case of `queue`: incharge works its group's. */
export const canWorkCase = (viewer: CaseViewer, queue: string) =>
  worksAllCases(viewer.role) || (viewer.role === 'incharge' && ownQueue(viewer, queue));
/** Notes and photos: whoever reads the case (an executive comments on its group's cases). */
export const canCommentCase = canReadCase;
/** Being assigned a case of `queue`: whoever may work it. */
export const canBeAssignedCase = canWorkCase;
/** The same of a user's row (its role and its group's code, if any). */
export const userMayBeAssignedCase = (user: { role: Role; code?: string | null }, queue: string) =>
  canBeAssignedCase({ role: user.role, groupCode: user.code ?? null }, queue);
/** The due time of each reason. */
export const canSetCaseDueTimes = (role: Role) => role === 'super_admin';
/** Bulk jobs: the roles that work cases; a job changes only the cases its creator may work. */
export const canRunCaseJobs = (role: Role) => worksAllCases(role) || role === 'incharge';
/** An API key of scope cases:read reads every queue, as central_ops does (docs/integrations.md#api-keys). */
export const API_KEY_CASE_VIEWER: CaseViewer = { role: 'central_ops', groupCode: null };

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
  'read-cases': canReadCases,
  'run-case-jobs': canRunCaseJobs,
  'manage-integrations': canManageIntegrations,
};
