// The audit trail (docs/audit.md): what the server records of every security-relevant action, in
// the action's own transaction, and the calls of the Audit Log screen (audit/, admins only).
import { Type, type Static } from '@sinclair/typebox';
import {
  AUDIT_ACTIONS,
  AUDIT_ACTOR_KINDS,
  AUDIT_OUTCOMES,
  AUDIT_TARGET_KINDS,
  MAX_AUDIT_ACTOR_LENGTH,
  MAX_AUDIT_TARGET_LENGTH,
} from '../audit-vocabulary';
import { Choice, Nullable, OptionalChoice, OptionalText } from './fields';

export {
  AUDIT_ACTIONS,
  AUDIT_ACTOR_KINDS,
  AUDIT_OUTCOMES,
  AUDIT_TARGET_KINDS,
  type AuditAction,
  type AuditActorKind,
  type AuditOutcome,
  type AuditTargetKind,
} from '../audit-vocabulary';

/** One entry of the trail, as audit/ answers it and the live event `audit` carries it. */
export const AuditEntry = Type.Object({
  /** 1, 2, 3… in commit order, without gaps: the chain's order. */
  seq: Type.Integer(),
  /** When it was written, ISO 8601 UTC. */
  time: Type.String(),
  actor: Type.Object({
    kind: Choice(AUDIT_ACTOR_KINDS),
    /** The user's or the token's id; null for anonymous and system. */
    id: Nullable(Type.String()),
    /** The username, the token's label, the username tried, or 'system'. */
    name: Type.String(),
    role: Nullable(Type.String()),
  }),
  /** The client's address (the forwarded one behind a trusted proxy); null for the server's own. */
  address: Nullable(Type.String()),
  action: Choice(AUDIT_ACTIONS),
  target: Nullable(
    Type.Object({ kind: Choice(AUDIT_TARGET_KINDS), id: Nullable(Type.String()), label: Type.String() }),
  ),
  outcome: Choice(AUDIT_OUTCOMES),
  /** What else is known: before and after where something changed, the counts of an upload, the refusal's message. */
  details: Nullable(Type.Record(Type.String(), Type.Unknown())),
  /** sha256 (hex) of the entry's content and the previous entry's hash. */
  hash: Type.String(),
});
export type AuditEntry = Static<typeof AuditEntry>;

const instant = (name: string) =>
  Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'An instant, ISO 8601 with its offset, e.g. 2026-11-24T00:00:00+05:30.',
      errorMessages: {
        missing: `${name} must be a date and time, e.g. 2026-11-24T00:00:00Z.`,
        format: `${name} must be a date and time, e.g. 2026-11-24T00:00:00Z.`,
      },
    }),
  );

export const AUDIT_PAGE_LIMIT = 200;
const limitMessage = `limit must be a whole number from 1 to ${AUDIT_PAGE_LIMIT}.`;

/** The filters of audit/ and audit/export/: each narrows, together they all must hold. */
export const AuditFilterQuery = Type.Object({
  actor: OptionalText('actor', MAX_AUDIT_ACTOR_LENGTH),
  action: OptionalChoice('action', AUDIT_ACTIONS),
  target_kind: OptionalChoice('target_kind', AUDIT_TARGET_KINDS),
  target: OptionalText('target', MAX_AUDIT_TARGET_LENGTH),
  outcome: OptionalChoice('outcome', AUDIT_OUTCOMES),
  /** From this instant on (included). */
  since: instant('since'),
  /** Before this instant (excluded). */
  until: instant('until'),
});
export type AuditFilterQuery = Static<typeof AuditFilterQuery>;

export const AuditPageQuery = Type.Object({
  ...AuditFilterQuery.properties,
  before: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,17}$',
      description: 'The `next` of the page before: entries older than it.',
      errorMessages: {
        missing: 'before must be the next value of an earlier page.',
        pattern: 'before must be the next value of an earlier page.',
      },
    }),
  ),
  limit: Type.Optional(
    Type.String({
      transform: ['trim'],
      // 1 to 200 without leading zeros (a query's values are text; nothing is coerced).
      pattern: '^([1-9]\\d?|1\\d\\d|200)$',
      errorMessages: { missing: limitMessage, pattern: limitMessage },
    }),
  ),
});
export type AuditPageQuery = Static<typeof AuditPageQuery>;

/** A page of entries, newest first; `next` (a seq, as text) reads the page after, null at the oldest. */
export const AuditPage = Type.Object({ entries: Type.Array(AuditEntry), next: Nullable(Type.String()) });
export type AuditPage = Static<typeof AuditPage>;

/** audit/verify/: whether the chain holds from the oldest entry kept to the newest. */
export const AuditVerification = Type.Object({
  ok: Type.Boolean(),
  /** Entries checked. */
  checked: Type.Integer(),
  first: Nullable(Type.Integer()),
  last: Nullable(Type.Integer()),
  /** The first entry where the chain breaks, and why; null when it holds. */
  broken: Nullable(Type.Object({ seq: Type.Integer(), reason: Type.String() })),
});
export type AuditVerification = Static<typeof AuditVerification>;
