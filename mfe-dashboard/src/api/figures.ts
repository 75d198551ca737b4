// The dashboard's figures from the server (docs/dashboard.md#server-side-figures): api/dashboard/
// for a selection, in the browser's time zone. Without the feature the page counts the records
// of statusQuery (@veritas/shared) itself.
import { http, RECORDS_KEY } from '@veritas/shared';
import { type DashboardStats, type Selection } from '@veritas/shared/domain';

const FIGURES_PATH = 'api/dashboard/';

/** The browser's time zone: the server counts days from local midnight to local midnight in it. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The key of every selection's figures: a change of records makes them all stale. */
export const FIGURES_KEY = [RECORDS_KEY, FIGURES_PATH] as const;

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

/** GET api/dashboard/?hub=&timeframe=&tz=; an answer that is not the figures is an error. */
export function figuresQuery({ hub, timeframe }: Selection, tz: string = timeZone()) {
  const params = { hub, timeframe, tz };
  return {
    queryKey: [...FIGURES_KEY, params] as const,
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<DashboardStats> => {
      const { data } = await http.get<unknown>(FIGURES_PATH, { params, signal });
      if (!isFigures(data)) throw new Error(`${FIGURES_PATH} did not answer the dashboard figures`);
      return data;
    },
  };
}
