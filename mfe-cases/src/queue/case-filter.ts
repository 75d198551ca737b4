// The Cases queue's filters (route /Cases): as the form and the URL hold them, and as api/cases/
// takes them (CaseFilters of @veritas/shared). The URL's query is the filters themselves: reason,
// state (left out when Active, the default), queue, assignee (a username, `me` or `none`),
// overdue=1, from and to (days, YYYY-MM-DD). A value the page would not offer is "any".
import { MAX_USERNAME_LENGTH, type CaseFilters } from '@veritas/shared';
import {
  CASE_REASONS,
  CASE_STATE_FILTERS,
  MAX_CASE_QUEUE_LENGTH,
  type CaseReason,
  type CaseStateFilter,
} from '@veritas/shared/case-vocabulary';
import { isCalendarDay } from '@veritas/shared/domain';
import { choiceOrAny } from '@veritas/shared/filters';

/** The filters as the form holds them; '' is "any". */
export interface CaseFilter {
  reason: CaseReason | '';
  state: CaseStateFilter;
  /** A hub's or return centre's group code. */
  queue: string;
  /** '' anyone, `me`, `none` (unassigned), or a username. */
  assignee: string;
  overdue: boolean;
  /** Opened on or after this day. */
  from: string;
  /** Opened on or before this day. */
  to: string;
}

export const DEFAULT_STATE: CaseStateFilter = 'active';

export const NO_FILTER: CaseFilter = {
  reason: '',
  state: DEFAULT_STATE,
  queue: '',
  assignee: '',
  overdue: false,
  from: '',
  to: '',
};

/** The assignee filter's fixed values: the signed-in user, and cases left in their queue. */
export const ASSIGNEE_ME = 'me';
export const ASSIGNEE_NONE = 'none';

type Source = Pick<URLSearchParams, 'get'>;

/** The filters of a URL's query (or of a saved view's filters); what the page would not offer is "any". */
export function filterFromParams(params: Source): CaseFilter {
  const text = (name: string, max: number) => {
    const value = (params.get(name) ?? '').trim();
    return value.length <= max ? value : '';
  };
  const day = (name: string) => {
    const value = (params.get(name) ?? '').trim();
    return isCalendarDay(value) ? value : '';
  };
  return {
    reason: choiceOrAny(CASE_REASONS, params.get('reason')),
    state: choiceOrAny(CASE_STATE_FILTERS, params.get('state')) || DEFAULT_STATE,
    queue: text('queue', MAX_CASE_QUEUE_LENGTH),
    assignee: text('assignee', MAX_USERNAME_LENGTH),
    overdue: params.get('overdue') === '1',
    from: day('from'),
    to: day('to'),
  };
}

/** The filters of a saved view (CaseFilters), read as a URL's would be. */
export function filterOfView(filters: CaseFilters): CaseFilter {
  const values = filters as Record<string, string | undefined>;
  return filterFromParams({ get: (name: string) => values[name] ?? null });
}

/**
 * What api/cases/ (and its count and export) is asked for `filter`, which is also the URL's query
 * and a saved view's filters: the fields set only, in a fixed order; the default state left out.
 */
export function queryOfFilter(filter: CaseFilter): CaseFilters {
  const query: CaseFilters = {};
  if (filter.reason) query.reason = filter.reason;
  if (filter.state !== DEFAULT_STATE) query.state = filter.state;
  if (filter.queue) query.queue = filter.queue;
  if (filter.assignee) query.assignee = filter.assignee;
  if (filter.overdue) query.overdue = '1';
  if (filter.from) query.from = filter.from;
  if (filter.to) query.to = filter.to;
  return query;
}

/** The URL query of `filter`. */
export const paramsOfFilter = (filter: CaseFilter): Record<string, string> =>
  queryOfFilter(filter) as Record<string, string>;

export const isFiltered = (filter: CaseFilter): boolean => Object.keys(queryOfFilter(filter)).length > 0;

/** Whether two sets of filters ask for the same cases. */
export const sameFilters = (a: CaseFilter, b: CaseFilter): boolean =>
  JSON.stringify(queryOfFilter(a)) === JSON.stringify(queryOfFilter(b));
