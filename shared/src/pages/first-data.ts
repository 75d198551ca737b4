// What a remote page asks the server first, by route (docs/architecture.md#first-rows): the shell
// starts these calls as the page's code loads, and the page reads their answers from the one
// query cache instead of asking again once its code has arrived.
import type { FIRST_DATA_NAMES, ServerFeature } from '@veritas/shared';
import { startVisitQueries, type VisitQuery } from '@veritas/shared/query';
import { deviceCountQuery, devicePagesQuery, devicesKey, filtersFromQuery } from './device-list';

type FirstQueries = (search: URLSearchParams, features: readonly ServerFeature[]) => VisitQuery[];

/** By name: a page's declaration names the ones it makes first (its `firstData`). */
const FIRST_QUERIES: Record<(typeof FIRST_DATA_NAMES)[number], FirstQueries> = {
  // The pick list's first page and total for the filters of the URL (useDevicePages).
  'device-list': (search, features) => {
    if (!features.includes('device-pages')) return [];
    const key = devicesKey(filtersFromQuery(search));
    return [devicePagesQuery(key, () => -1), deviceCountQuery(key)];
  },
};

/** Starts the first calls named `name` for the URL query `search`, with the server's `features`. */
export function startFirstData(name: string, search: string, features: readonly ServerFeature[]): void {
  const first = (FIRST_QUERIES as Partial<Record<string, FirstQueries>>)[name];
  startVisitQueries(first?.(new URLSearchParams(search), features) ?? []);
}
