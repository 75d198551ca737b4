// The pick list served a page at a time (server feature 'device-pages'): filters held in the URL
// query, the rows loaded as the user scrolls, and the hub choices.
import { useResource, useSearchParams } from '@veritas/shared';
import { usePagedResource, type PagedResource } from '@veritas/shared/paged';
import { useCallback, useState } from 'react';
import {
  DEVICE_PAGES,
  devicesKey,
  filtersFromQuery,
  getDeviceHubs,
  HUBS_PATH,
  queryOfFilters,
  scrollRows,
  type DeviceFilters,
} from './devicePages';
import type { DeviceRow } from './deviceRows';

// docs/errors.md#device-pick-list: failures are only logged.
const logPageError = (error: unknown) => console.error('Failed to fetch device records', error);
const logHubsError = (error: unknown) => console.error('Failed to fetch hubs', error);

/**
 * The filters of the URL query (?q=&hub=&status=&result=), and a setter that replaces the current
 * history entry. The tracking-ID text is kept in the page as typed (router updates run in a
 * transition, too late for a text box) and copied to the URL.
 */
export function useDeviceFilters(): [DeviceFilters, (change: Partial<DeviceFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const [q, setQ] = useState(() => params.get('q') ?? '');
  const filters: DeviceFilters = { ...filtersFromQuery(params), q };
  const change = useCallback(
    (update: Partial<DeviceFilters>) => {
      if (update.q !== undefined) setQ(update.q);
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const name of ['q', 'hub', 'status', 'result'] as const) next.delete(name);
          // The text as last typed: the URL may not show it yet.
          const merged = { ...filtersFromQuery(current), q, ...update };
          for (const [name, value] of Object.entries(queryOfFilters(merged))) next.set(name, value);
          return next;
        },
        { replace: true },
      );
    },
    [q, setParams],
  );
  return [filters, change];
}

export interface DevicePages extends PagedResource<DeviceRow> {
  /** Rows of the scroll area: the server's total while more pages follow (placeholders past the rows loaded). */
  rowCount: number;
}

/**
 * The rows of the filtered list, newest first, loaded a page at a time (api/devices/) with the
 * total (api/devices/count/). Changing a filter asks for the first page at once and drops the
 * calls of the previous filters; `showUpTo(index)` (the last row in view) fetches further pages.
 */
export function useDevicePages(filters: DeviceFilters): DevicePages {
  const pages = usePagedResource(devicesKey(filters), DEVICE_PAGES, { onError: logPageError });
  return { ...pages, rowCount: scrollRows(pages.items.length, pages.total, pages.hasMore) };
}

const NO_HUBS: string[] = [];

/** The hub codes of the Hub filter (api/devices/hubs/), fetched once per visit; none while loading or after a failure. */
export function useDeviceHubs(): string[] {
  return useResource(HUBS_PATH, getDeviceHubs, { onError: logHubsError }).data ?? NO_HUBS;
}
