// The Audit Log's filters (docs/screens.md#audit-log): as the URL holds them (actor, action,
// target_kind, target, outcome, from, to; days in the browser's zone), as audit/ takes them
// (since and until are instants), and the same rules applied in the page to a live entry.
import type { AuditAction, AuditEntry, AuditFilterQuery, AuditOutcome, AuditTargetKind } from '@veritas/shared';
import {
  AUDIT_ACTIONS,
  AUDIT_OUTCOMES,
  AUDIT_TARGET_KINDS,
  MAX_AUDIT_ACTOR_LENGTH,
  MAX_AUDIT_TARGET_LENGTH,
} from '@veritas/shared/audit-vocabulary';
import { isCalendarDay, localMidnight } from '@veritas/shared/domain';
import { choiceOrAny } from '@veritas/shared/filters';

/** The filters as the form and the URL hold them; '' is "any". */
export interface AuditFilter {
  actor: string;
  action: AuditAction | '';
  target_kind: AuditTargetKind | '';
  target: string;
  outcome: AuditOutcome | '';
  /** The first day shown, YYYY-MM-DD in the browser's zone. */
  from: string;
  /** The last day shown, YYYY-MM-DD in the browser's zone. */
  to: string;
}

export const NO_FILTER: AuditFilter = {
  actor: '',
  action: '',
  target_kind: '',
  target: '',
  outcome: '',
  from: '',
  to: '',
};

const FIELDS = Object.keys(NO_FILTER) as (keyof AuditFilter)[];

/** The filters of a URL's query; a value the page would not offer (an unknown action, no day) is "any". */
export function filterFromParams(params: URLSearchParams): AuditFilter {
  const text = (name: string, max: number) => (params.get(name) ?? '').trim().slice(0, max);
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return isCalendarDay(value) ? value : '';
  };
  return {
    actor: text('actor', MAX_AUDIT_ACTOR_LENGTH),
    action: choiceOrAny(AUDIT_ACTIONS, params.get('action')),
    target_kind: choiceOrAny(AUDIT_TARGET_KINDS, params.get('target_kind')),
    target: text('target', MAX_AUDIT_TARGET_LENGTH),
    outcome: choiceOrAny(AUDIT_OUTCOMES, params.get('outcome')),
    from: day('from'),
    to: day('to'),
  };
}

/** The URL query of `filter`: its set fields only, in a fixed order. */
export function paramsOfFilter(filter: AuditFilter): Record<string, string> {
  return Object.fromEntries(FIELDS.filter((field) => filter[field] !== '').map((field) => [field, filter[field]]));
}

export const isFiltered = (filter: AuditFilter): boolean => FIELDS.some((field) => filter[field] !== '');

/**
 * The query of audit/ and audit/export/ for `filter`: since is local midnight of `from`, until local
 * midnight of the day after `to` (since included, until excluded), both as ISO instants.
 */
export function queryOfFilter(filter: AuditFilter): AuditFilterQuery {
  const query: AuditFilterQuery = {};
  if (filter.actor) query.actor = filter.actor;
  if (filter.action) query.action = filter.action;
  if (filter.target_kind) query.target_kind = filter.target_kind;
  if (filter.target) query.target = filter.target;
  if (filter.outcome) query.outcome = filter.outcome;
  const since = localMidnight(filter.from);
  const until = localMidnight(filter.to, 1);
  if (since) query.since = since.toISOString();
  if (until) query.until = until.toISOString();
  return query;
}

/**
 * Whether audit/ would answer `entry` for `query`: the server's rules (api/src/audit/search.ts),
 * for a live entry. actor is the actor's name and target the target's label, both exact; since is
 * included, until excluded; an empty value is "any".
 */
export function matchesFilter(entry: AuditEntry, query: AuditFilterQuery): boolean {
  if (query.actor && entry.actor.name !== query.actor) return false;
  if (query.action && entry.action !== query.action) return false;
  if (query.target_kind && entry.target?.kind !== query.target_kind) return false;
  if (query.target && entry.target?.label !== query.target) return false;
  if (query.outcome && entry.outcome !== query.outcome) return false;
  const time = Date.parse(entry.time);
  if (query.since && !(time >= Date.parse(query.since))) return false;
  if (query.until && !(time < Date.parse(query.until))) return false;
  return true;
}
