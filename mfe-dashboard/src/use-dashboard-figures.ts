// Where the dashboard's figures come from (docs/dashboard.md#where-the-figures-come-from): the
// server's api/dashboard/ for the selection when it offers 'dashboard-figures', else every record
// of api/get_status/, counted in the page. The groups (the hub choices) come from user/get_groups/.
// With the live event stream the figures follow the changes (docs/dashboard.md#live-figures).
import {
  groupsQuery,
  notifyError,
  statusQuery,
  subscribeLiveEvents,
  throttle,
  useLiveEvents,
  useLiveRecords,
  useSession,
  type DeviceRecord,
  type Group,
} from '@veritas/shared';
import { dashboardStats, type DashboardStats, type Selection } from '@veritas/shared/domain';
import { keepPreviousData, refreshQueries, useQueryClient, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useEffect, useMemo } from 'react';
import { FIGURES_KEY, figuresQuery } from './api/figures';

const NO_RECORDS: DeviceRecord[] = [];
const NO_GROUPS: Group[] = [];

/** The figures follow live changes at most this often (docs/dashboard.md#live-figures). */
export const LIVE_EVERY_MS = 1000;

/**
 * docs/errors.md#dashboard: the server's message, else a fallback per call; the page shows what did
 * arrive. A call that fails while an answer is shown (a live change asked it again) is only logged:
 * the figures shown stay, and a stream of changes must not become a stream of toasts.
 */
function notifyUnlessShown(fallback: string, shown: boolean) {
  return (error: unknown) =>
    shown ? console.error('A live reload of the dashboard failed', error) : notifyError(error, fallback);
}

export interface DashboardFigures {
  stats: DashboardStats;
  groups: Group[];
  /** The groups have answered: a hub missing from them is not a hub choice (while a failed call is no answer). */
  groupsKnown: boolean;
  /** Nothing to show yet: the figures or the groups have not answered. */
  loading: boolean;
  /** The selection changed and its figures are on their way: those shown are the previous selection's. */
  refreshing: boolean;
}

type Answer = DeviceRecord[] | DashboardStats;

/**
 * The figures for `selection` and the groups, fetched in parallel. From the server, each selection
 * is one call (only the latest one's answer is shown; the previous figures stay until it arrives).
 * Otherwise the records are fetched once per visit and every selection is counted from them.
 */
export function useDashboardFigures(selection: Selection): DashboardFigures {
  const client = useQueryClient();
  const fromServer = useSession((s) => s.features.includes('dashboard-figures'));
  const answer = useQueryNow<Answer>({
    ...(fromServer ? figuresQuery(selection) : statusQuery),
    placeholderData: keepPreviousData,
  });
  const groups = useQueryNow(groupsQuery);
  useQueryError(answer.error, notifyUnlessShown('Failed to fetch status', answer.isRefetchError));
  useQueryError(groups.error, notifyUnlessShown('Failed to fetch groups', groups.isRefetchError));

  // From the server: any change of records (or a reset) asks the selection's figures again, at
  // most once a second, the last change always followed by a call.
  useEffect(() => {
    if (!fromServer) return;
    const reload = throttle(() => void client.invalidateQueries({ queryKey: FIGURES_KEY }), LIVE_EVERY_MS);
    const unsubscribe = subscribeLiveEvents('records', reload);
    return () => {
      unsubscribe();
      reload.cancel();
    };
  }, [client, fromServer]);
  // Counted here: the events' records are put in the list, and it is counted again, at most once a second.
  useLiveRecords(client, fromServer ? null : statusQuery.queryKey, { applyEvery: LIVE_EVERY_MS });
  // A group created (or a reset) may be a new hub choice.
  useLiveEvents('groups', () => void refreshQueries(client, { queryKey: groupsQuery.queryKey }));

  const { hub, timeframe } = selection;
  const records = Array.isArray(answer.data) ? answer.data : NO_RECORDS;
  // Without records (from a spec-only server, or before or after a failed call) every figure is zero.
  const computed = useMemo(() => dashboardStats(records, { hub, timeframe }), [records, hub, timeframe]);
  const figures = fromServer && answer.data && !Array.isArray(answer.data) ? answer.data : undefined;

  return {
    stats: figures ?? computed,
    groups: groups.data ?? NO_GROUPS,
    groupsKnown: groups.isSuccess,
    loading: answer.isPending || groups.isPending,
    refreshing: fromServer && answer.isPlaceholderData,
  };
}
