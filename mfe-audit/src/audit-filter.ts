// The Audit Log's filters (docs/screens.md#audit-log): as the URL holds them (actor, action,
// target_kind, target, outcome, from, to; days in the browser's zone), as audit/ takes them
// (since and until are instants), and the same rules applied in the page to a live entry.
import type { AuditAction, AuditEntry, AuditFilterQuery, AuditOutcome, AuditTargetKind } from '@veritas/shared';
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, AUDIT_TARGET_KINDS } from '@veritas/shared/audit-vocabulary';

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

/** The longest actor and target audit/ takes. */
export const MAX_ACTOR_LENGTH = 200;
export const MAX_TARGET_LENGTH = 500;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | '' =>
  values.includes(value as T) ? (value as T) : '';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of `day` (YYYY-MM-DD) plus `plusDays` days; null when it is not a calendar day. */
function localMidnight(day: string, plusDays = 0): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = match.slice(1).map(Number) as [number, number, number];
  const midnight = new Date(year, month - 1, date);
  // new Date rolls 2026-02-31 over to March: such a text is no day.
  if (midnight.getFullYear() !== year || midnight.getMonth() !== month - 1 || midnight.getDate() !== date) return null;
  return plusDays ? new Date(year, month - 1, date + plusDays) : midnight;
}

export const isDay = (text: string): boolean => localMidnight(text) !== null;

/** The filters of a URL's query; a value the page would not offer (an unknown action, no day) is "any". */
export function filterFromParams(params: URLSearchParams): AuditFilter {
  const text = (name: string, max: number) => (params.get(name) ?? '').trim().slice(0, max);
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return isDay(value) ? value : '';
  };
  return {
    actor: text('actor', MAX_ACTOR_LENGTH),
    action: oneOf(AUDIT_ACTIONS, params.get('action')),
    target_kind: oneOf(AUDIT_TARGET_KINDS, params.get('target_kind')),
    target: text('target', MAX_TARGET_LENGTH),
    outcome: oneOf(AUDIT_OUTCOMES, params.get('outcome')),
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
