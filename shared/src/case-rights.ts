// Who may read and work cases (docs/screens.md#cases-rights): the server's rule and the Cases
// remote's. Not in @veritas/shared's main entry, which the login page loads: the API reads it
// through @veritas/shared/domain, the Cases remote through @veritas/shared/case-vocabulary.
import { isAdmin, type Role } from './roles';

/** Who looks at cases: a role and the group (hub or return centre) it works for. */
export interface CaseViewer {
  role: Role;
  groupCode: string | null;
}

/** central_ops, admin and super_admin work every queue (docs/screens.md#cases-rights). */
export const worksAllCases = (role: Role | null): boolean => role === 'central_ops' || isAdmin(role);
/** The roles that work cases (assign, review, resolve, reopen, be assigned): every queue, or an incharge its group's. */
export const worksCases = (role: Role | null): boolean => worksAllCases(role) || role === 'incharge';
/** The Cases screens: every console role; incharge and executive see their group's queue only. */
export const canReadCases = (role: Role | null): boolean => worksCases(role) || role === 'executive';

const ownQueue = (viewer: CaseViewer, queue: string) =>
  viewer.groupCode !== null && viewer.groupCode.toUpperCase() === queue.toUpperCase();

/** Reading a case of `queue`. */
export const canReadCase = (viewer: CaseViewer, queue: string): boolean =>
  worksAllCases(viewer.role) || (canReadCases(viewer.role) && ownQueue(viewer, queue));
/** Assigning, reviewing, resolving and reopening a case of `queue`: incharge works its group's. */
export const canWorkCase = (viewer: CaseViewer, queue: string): boolean =>
  worksAllCases(viewer.role) || (worksCases(viewer.role) && ownQueue(viewer, queue));
/** Notes and photos: whoever reads the case (an executive comments on its group's cases). */
export const canCommentCase = canReadCase;
/** Being assigned a case of `queue`: whoever may work it. */
export const canBeAssignedCase = canWorkCase;
/** The due time of each reason. */
export const canSetCaseDueTimes = (role: Role | null): boolean => role === 'super_admin';
/** Bulk jobs: the roles that work cases; a job changes only the cases its creator may work. */
export const canRunCaseJobs = worksCases;
