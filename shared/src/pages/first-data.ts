// What a remote page asks the server first, by route (docs/architecture.md#first-rows): the shell
// starts these calls as the page's code loads, and the page reads their answers from the one
// query cache instead of asking again once its code has arrived.
import type { RemoteRouteName, ServerFeature } from '@veritas/shared';
import { startVisitQueries, type VisitQuery } from '@veritas/shared/query';
import { deviceCountQuery, devicePagesQuery, devicesKey, filtersFromQuery } from './device-list';

type FirstQueries = (search: URLSearchParams, features: readonly ServerFeature[]) => VisitQuery[];

const FIRST_QUERIES: Partial<Record<RemoteRouteName, FirstQueries>> = {
  // The pick list's first page and total for the filters of the URL (useDevicePages).
  ListDevices: (search, features) => {
    if (!features.includes('device-pages')) return [];
    const key = devicesKey(filtersFromQuery(search));
    return [devicePagesQuery(key, () => -1), deviceCountQuery(key)];
  },
};

/** Starts the first calls of `route` for the URL query `search`, with the server's `features`. */
export function startFirstData(route: RemoteRouteName, search: string, features: readonly ServerFeature[]): void {
  startVisitQueries(FIRST_QUERIES[route]?.(new URLSearchParams(search), features) ?? []);
}
