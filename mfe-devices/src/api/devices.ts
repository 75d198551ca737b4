// The pick list's calls (docs/architecture.md#server-features, 'device-pages'): the records of a
// set of filters a page at a time (keyset cursor), their total, records re-read by id, and the hubs.
// The first page and the total may have been started by the shell with this remote's code: the
// `firstCalls` of remote.json (docs/architecture.md#first-rows), taken when they are the very request.
import { http, RECORDS_KEY } from '@veritas/shared';
import { MAX_PAGE_LIMIT } from '@veritas/shared/domain';
import { takeFirstCall } from '@veritas/shared/first-calls';
import { infiniteQueryOptions, queryOptions } from '@veritas/shared/query';
import { filterParams, type DeviceFilters } from '../device-pages';
import { toDeviceRow, type DeviceRow } from '../device-rows';

export const DEVICES_PATH = 'api/devices/';
const COUNT_PATH = 'api/devices/count/';
const HUBS_PATH = 'api/devices/hubs/';

/** Rows asked for per page (remote.json's first call asks for the same). */
export const PAGE_SIZE = 100;
/** How many rows beyond the last one in view are kept loaded. */
export const AHEAD = 50;

/** The list a set of filters names: the call's path and its filters. */
export function devicesKey(filters: DeviceFilters): string {
  const query = new URLSearchParams(filterParams(filters)).toString();
  return query ? `${DEVICES_PATH}?${query}` : DEVICES_PATH;
}

/** The filter parameters a key (devicesKey) holds. */
export function paramsOfKey(key: string): Record<string, string> {
  const at = key.indexOf('?');
  return at < 0 ? {} : Object.fromEntries(new URLSearchParams(key.slice(at + 1)));
}

/** GET `path` with `params`: the first call the shell started for that very request, or a call of its own. */
function get<T>(path: string, params: Record<string, string>, signal?: AbortSignal) {
  return takeFirstCall<T>(path, params) ?? http.get<T>(path, { params, signal });
}

/**
 * One page of a list: the list (devicesKey) it belongs to, its rows, the cursor of the page after
 * it (null: this was the last) and the row that cursor names, as sent.
 */
export interface DevicePage {
  list: string;
  items: readonly DeviceRow[];
  next: string | null;
  boundary: DeviceRow | null;
}

/** Where a page starts and how many rows it asks for. */
export interface PageParam {
  after: string | null;
  limit: number;
}

interface DevicePageAnswer {
  records: unknown;
  next: unknown;
}

/** GET api/devices/?<filters>&after=&limit=: a page of the list named `key`, newest first. */
export async function fetchDevicePage(
  key: string,
  after: string | null,
  limit: number,
  signal?: AbortSignal,
): Promise<DevicePage> {
  const params = { ...paramsOfKey(key), ...(after === null ? {} : { after }), limit: String(limit) };
  const { data } = await get<DevicePageAnswer>(DEVICES_PATH, params, signal);
  if (!data || !Array.isArray(data.records)) throw new Error(`${DEVICES_PATH} did not answer a page of records`);
  const items = data.records.map(toDeviceRow);
  const next = typeof data.next === 'string' && data.next ? data.next : null;
  return { list: key, items, next, boundary: next === null ? null : (items[items.length - 1] ?? null) };
}

/** A list's count: `more` when a search matched more records than `total` and the server counted no further. */
export interface DeviceTotal {
  total: number;
  more: boolean;
}

/** GET api/devices/count/?<filters>: how many records the list named `key` holds. */
export async function fetchDeviceCount(key: string, signal?: AbortSignal): Promise<DeviceTotal> {
  const { data } = await get<{ total: number; more?: boolean }>(COUNT_PATH, paramsOfKey(key), signal);
  if (typeof data?.total !== 'number') throw new Error(`${COUNT_PATH} did not answer a total`);
  return { total: data.total, more: data.more === true };
}

/**
 * Re-reads records through the query of the list `key` (GET api/devices/?ids=&<its filters>): the
 * rows of those of `ids` (at most MAX_IDS) that match its filters; an id left out no longer does.
 */
export async function devicesByIds(key: string, ids: readonly number[]): Promise<DeviceRow[]> {
  const { data } = await http.get<DevicePageAnswer>(DEVICES_PATH, {
    params: { ...paramsOfKey(key), ids: ids.join(',') },
  });
  if (!data || !Array.isArray(data.records)) throw new Error(`${DEVICES_PATH} did not answer the records asked for`);
  return data.records.map(toDeviceRow);
}

/** GET api/devices/hubs/: the hub codes the Hub filter offers. */
export async function getDeviceHubs(): Promise<string[]> {
  const { data } = await http.get<{ hubs: string[] }>(HUBS_PATH);
  if (!Array.isArray(data?.hubs)) throw new Error(`${HUBS_PATH} did not answer a list of hubs`);
  return data.hubs.filter((hub): hub is string => typeof hub === 'string' && hub.trim() !== '');
}

export const hubsQuery = queryOptions({ queryKey: [HUBS_PATH], queryFn: getDeviceHubs });

/** The cache key of the pages of the list named `key`. */
export const devicePagesKey = (key: string) => [RECORDS_KEY, DEVICES_PATH, key] as const;
/** The cache key of the total of the list named `key`. */
export const deviceCountKey = (key: string) => [RECORDS_KEY, COUNT_PATH, key] as const;

/** The first page of a list: where it starts and its size. */
export const FIRST_PAGE: PageParam = { after: null, limit: PAGE_SIZE };

/**
 * The list named `key` (devicesKey) page by page. `lastInView` is the last row the user has
 * scrolled to: far past the end (the scrollbar dragged down), the next page is bigger, so fewer
 * round trips.
 */
export function devicePagesQuery(key: string, lastInView: number) {
  return infiniteQueryOptions({
    queryKey: devicePagesKey(key),
    queryFn: ({ pageParam, signal }) => fetchDevicePage(key, pageParam.after, pageParam.limit, signal),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: (last, pages): PageParam | undefined => {
      if (last.next === null) return undefined;
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return {
        after: last.next,
        limit: Math.min(MAX_PAGE_LIMIT, Math.max(PAGE_SIZE, lastInView + AHEAD + 1 - loaded)),
      };
    },
  });
}

/** The total of the list named `key`. */
export function deviceCountQuery(key: string) {
  return queryOptions({
    queryKey: deviceCountKey(key),
    queryFn: ({ signal }) => fetchDeviceCount(key, signal),
  });
}
