// Where the dashboard's figures come from (docs/dashboard.md#where-the-figures-come-from): the
// server's api/dashboard/ for the selection when it offers 'dashboard-figures', else every record
// of api/get_status/, counted in the page. The groups (the hub choices) come from user/get_groups/.
// With the live event stream the figures follow the changes (docs/dashboard.md#live-figures).
import {
  dashboardStats,
  getList,
  http,
  notifyError,
  subscribeLiveEvents,
  throttle,
  useLiveEvents,
  useLiveRecords,
  useResource,
  useSession,
  type DashboardStats,
  type DeviceRecord,
  type Group,
  type Selection,
} from '@veritas/shared';
import { useEffect, useMemo, useRef, useState } from 'react';

const STATUS_PATH = 'api/get_status/';
const FIGURES_PATH = 'api/dashboard/';

const NO_RECORDS: DeviceRecord[] = [];
const NO_GROUPS: Group[] = [];

// docs/errors.md#dashboard: the server's message, else a fallback per call; the page shows what did arrive.
const onStatusError = (error: unknown) => notifyError(error, 'Failed to fetch status');
const onGroupsError = (error: unknown) => notifyError(error, 'Failed to fetch groups');

/** The figures follow live changes at most this often (docs/dashboard.md#live-figures). */
export const LIVE_EVERY_MS = 1000;

/** The browser's time zone: the server counts days from local midnight to local midnight in it. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The call for the figures of a selection: api/dashboard/?hub=&timeframe=&tz=. */
export function figuresKey({ hub, timeframe }: Selection, tz: string = timeZone()): string {
  return `${FIGURES_PATH}?${new URLSearchParams({ hub, timeframe, tz })}`;
}

function isFigures(data: unknown): data is DashboardStats {
  if (!data || typeof data !== 'object') return false;
  const d = data as Record<string, unknown>;
  const series = (value: unknown) => !!value && Array.isArray((value as Record<string, unknown>).doorstep);
  return (
    typeof d.verified === 'number' &&
    typeof d.pending === 'number' &&
    typeof d.rejection === 'string' &&
    Array.isArray(d.days) &&
    series(d.trend) &&
    series(d.volume) &&
    Array.isArray(d.errors) &&
    Array.isArray(d.topHubs) &&
    Array.isArray(d.topOperators)
  );
}

/** GET api/dashboard/ with the parameters the key holds; an answer that is not the figures is an error. */
async function getFigures(key: string): Promise<DashboardStats> {
  const params = Object.fromEntries(new URLSearchParams(key.slice(key.indexOf('?') + 1)));
  const { data } = await http.get<unknown>(FIGURES_PATH, { params });
  if (!isFigures(data)) throw new Error(`${FIGURES_PATH} did not answer the dashboard figures`);
  return data;
}

type Answer = DeviceRecord[] | DashboardStats;
const getRecords = (path: string): Promise<Answer> => getList<DeviceRecord>(path);
const getServerFigures = (key: string): Promise<Answer> => getFigures(key);

export interface DashboardFigures {
  stats: DashboardStats;
  groups: Group[];
  /** Nothing to show yet: the figures or the groups have not answered. */
  loading: boolean;
  /** The selection changed and its figures are on their way: those shown are the previous selection's. */
  refreshing: boolean;
}

/**
 * The figures for `selection` and the groups, fetched in parallel. From the server, each selection
 * is one call (only the latest one's answer is shown; the previous figures stay until it arrives).
 * Otherwise the records are fetched once per visit and every selection is counted from them.
 */
export function useDashboardFigures(selection: Selection): DashboardFigures {
  const fromServer = useSession((s) => s.features.includes('dashboard-figures'));
  // Calls made for live changes under way: their failures are logged, not toasted, as the figures
  // shown stay and a stream of changes must not become a stream of toasts.
  const live = useRef(0);
  const quietly = <T>(reload: () => Promise<T>) => {
    live.current += 1;
    return reload().finally(() => (live.current -= 1));
  };
  const unless = (toast: (error: unknown) => void) => (error: unknown) =>
    live.current ? console.error('A live reload of the dashboard failed', error) : toast(error);
  const answer = useResource<Answer>(
    fromServer ? figuresKey(selection) : STATUS_PATH,
    fromServer ? getServerFigures : getRecords,
    {
      onError: unless(onStatusError),
    },
  );
  const groups = useResource('user/get_groups/', getList<Group>, { onError: unless(onGroupsError) });

  // From the server: any change of records (or a reset) asks the selection's figures again, at
  // most once a second, the last change always followed by a call.
  const reloadFigures = useRef(answer.reload);
  useEffect(() => {
    reloadFigures.current = answer.reload;
  });
  useEffect(() => {
    if (!fromServer) return;
    const reload = throttle(() => void quietly(reloadFigures.current), LIVE_EVERY_MS);
    const unsubscribe = subscribeLiveEvents('records', reload);
    return () => {
      unsubscribe();
      reload.cancel();
    };
  }, [fromServer]);
  // Counted here: the events' records are put in the list, and it is counted again, at most once a second.
  useLiveRecords(
    fromServer
      ? null
      : {
          data: Array.isArray(answer.data) ? answer.data : undefined,
          reload: () => quietly(answer.reload).then((data) => (Array.isArray(data) ? data : undefined)),
          setData: (update) => answer.setData((data) => update(Array.isArray(data) ? data : undefined)),
        },
    { applyEvery: LIVE_EVERY_MS },
  );
  // A group created (or a reset) may be a new hub choice.
  useLiveEvents('groups', () => void quietly(groups.reload));

  const { hub, timeframe } = selection;
  const records = Array.isArray(answer.data) ? answer.data : NO_RECORDS;
  // Without records (from a spec-only server, or before or after a failed call) every figure is zero.
  const computed = useMemo(() => dashboardStats(records, { hub, timeframe }), [records, hub, timeframe]);

  // The server's latest figures, kept while those of a new selection are on their way.
  const fresh = fromServer && answer.data && !Array.isArray(answer.data) ? answer.data : undefined;
  const [kept, setKept] = useState<DashboardStats | undefined>(undefined);
  if (fresh && fresh !== kept) setKept(fresh);
  const waiting = fromServer && answer.loading;
  const previous = waiting ? kept : undefined;

  return {
    stats: fresh ?? previous ?? computed,
    groups: groups.data ?? NO_GROUPS,
    loading: (answer.loading && !previous) || groups.loading,
    refreshing: !!previous,
  };
}
