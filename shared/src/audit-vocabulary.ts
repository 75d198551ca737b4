// The audit trail's vocabulary (docs/audit.md#what-is-recorded): its actions, outcomes, actor and
// target kinds. Plain lists without the schemas of ./api/audit.ts, so the Audit Log page's filters
// carry no TypeBox code.
/** Every action the trail records, by its name; the screen's action filter lists them in this order. */
export const AUDIT_ACTIONS = [
  'session.sign-in',
  'session.sign-out',
  'session.family-revoked',
  'password.changed',
  'password.reset',
  'user.created',
  'user.activated',
  'user.deactivated',
  'user.deleted',
  'group.created',
  'brand.created',
  'brand.updated',
  'exclude-list.changed',
  'upload.started',
  'upload.completed',
  'report.downloaded',
  'apk.downloaded',
  'remote.published',
  'remote.promoted',
  'remote.canary-started',
  'remote.canary-stopped',
  'remote.rolled-back',
  'remote.retired',
  'token.created',
  'token.revoked',
  'token.refused',
  'origin.added',
  'origin.removed',
  'audit.pruned',
  'case.opened',
  'case.assigned',
  'case.review-started',
  'case.resolved',
  'case.reopened',
  'case.noted',
  'case.photo-added',
  'case.due-times-changed',
  'case.view-saved',
  'case.view-deleted',
  'case.bulk-started',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret-rotated',
  'webhook.disabled',
  'webhook.redelivered',
  'webhook.replayed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** success: it was done; failure: it was tried and failed (wrong password); refused: a rule said no (403, 409, 429). */
export const AUDIT_OUTCOMES = ['success', 'failure', 'refused'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Who acted: a signed-in user, a deploy token, nobody known yet (a sign-in: the username tried), or the server itself. */
export const AUDIT_ACTOR_KINDS = ['user', 'token', 'anonymous', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const AUDIT_TARGET_KINDS = [
  'user',
  'group',
  'brand',
  'exclude-list',
  'upload',
  'report',
  'apk',
  'remote',
  'token',
  'origin',
  'audit-log',
  'case',
  'case-view',
  'webhook',
] as const;
export type AuditTargetKind = (typeof AUDIT_TARGET_KINDS)[number];

/** The longest actor and target the filters of audit/ take. */
export const MAX_AUDIT_ACTOR_LENGTH = 200;
export const MAX_AUDIT_TARGET_LENGTH = 500;
