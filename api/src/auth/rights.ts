// What each role may do on the server (docs/screens.md#server-side-rights): the server's own rules,
// and the names the registry's declarations may give them (PERMISSIONS). The rules the console
// applies too (assignable roles, creating groups, users' actions, admins, Deployments, the cases'
// rights) are @veritas/shared's, imported from there; those re-exported here are read by other
// server modules.
import {
  canAssignRole,
  canBeAssignedCase,
  canOpenDeployments,
  canReadCases,
  canRunCaseJobs,
  isAdmin,
  type CaseViewer,
  type Role,
} from '@veritas/shared/domain';

export { canManageDeployAccess, canReadCase, type CaseViewer } from '@veritas/shared/domain';

/** Field staff use the mobile app; the web console refuses them. */
export const canUseWeb = (role: Role) => role !== 'operators';
export const canUpload = isAdmin;
export const canEditWhiteLabels = isAdmin;
export const canDownloadApk = isAdmin;
/** Admins see every user; other roles see the users whose role they may assign. */
export const canListAllUsers = isAdmin;
/** Whether `viewer` sees a user of `role` (user/get_users/, the event stream's users events). */
export const canSeeUser = (viewer: Role, role: Role) => canListAllUsers(viewer) || canAssignRole(viewer, role);
/** Publishing and rolling out remotes from the console (a deploy token may too, for its remotes). */
export const canDeploy = canOpenDeployments;
/** The audit trail's screen and calls; verifying its chain is a super admin's. */
export const canReadAuditLog = isAdmin;
export const canVerifyAuditLog = (role: Role) => role === 'super_admin';
/** The Integrations screen: API keys (docs/integrations.md#who). */
export const canManageIntegrations = isAdmin;

/** canBeAssignedCase of a user's row (its role and its group's code, if any). */
export const userMayBeAssignedCase = (user: { role: Role; code?: string | null }, queue: string) =>
  canBeAssignedCase({ role: user.role, groupCode: user.code ?? null }, queue);
/** An API key of scope cases:read reads every queue, as central_ops does (docs/integrations.md#api-keys). */
export const API_KEY_CASE_VIEWER: CaseViewer = { role: 'central_ops', groupCode: null };

/**
 * The permissions a remote's declaration may name as a page's, menu entry's or extension's access
 * (`{ "permission": "upload-shipments" }`), each a rule the server enforces: what the server refuses a
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
