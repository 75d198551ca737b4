// The Device Pick List's first calls (server feature 'device-pages', docs/architecture.md#first-rows):
// its filters as the URL query holds them, the list a page at a time (keyset cursor) and its total.
// Here rather than in the remote, so that the shell starts them with the page's code and the page
// reads the same answers from the one query cache; the rest of the page is the devices remote's.
// The package's own entries, not its files: @veritas/shared and @veritas/shared/query are Module
// Federation singletons, and a relative import would bundle a second copy of the HTTP client.
import {
  ALL_HUBS,
  DEVICE_ERRORS,
  hubCodeOf,
  http,
  recordTimestamp,
  RECORDS_KEY,
  timeValue,
  type DeviceRecord,
  type RecordStatus,
  type RecordTimestamp,
  type SelectOption,
} from '@veritas/shared';
import { infiniteQueryOptions, queryOptions } from '@veritas/shared/query';

export const DEVICES_PATH = 'api/devices/';
const COUNT_PATH = 'api/devices/count/';

/** The choice 'All Hubs', 'All Statuses' or 'All Results': that filter does not narrow the list. */
export const ALL = ALL_HUBS;

/** The Status filter: the server's value for each status text of docs/screens.md#status. */
export const STATUS_FILTERS = [
  { value: 'pending', label: 'Pending' },
  { value: 'submitted', label: 'Submitted for verification' },
  { value: 'verified', label: 'verified at hub' },
  { value: 'detached', label: 'Detatched' },
] as const satisfies readonly { value: string; label: RecordStatus }[];

export type StatusFilter = (typeof STATUS_FILTERS)[number]['value'];

export const STATUS_CHOICES: readonly SelectOption[] = [{ value: ALL, label: 'All Statuses' }, ...STATUS_FILTERS];

/** The Result filter: passed, then each code of the device error catalogue with its title. */
export const RESULT_FILTERS: readonly SelectOption[] = [
  { value: 'passed', label: 'Passed' },
  ...DEVICE_ERRORS.map(({ code, title }) => ({ value: code, label: `${code}: ${title}` })),
];

export const RESULT_CHOICES: readonly SelectOption[] = [{ value: ALL, label: 'All Results' }, ...RESULT_FILTERS];

/** The filters as chosen: null when nothing is chosen, ALL for an 'All …' choice. */
export interface DeviceFilters {
  /** The tracking-ID text as typed (sent without surrounding spaces). */
  q: string;
  /** A hub code or ALL. */
  hub: string | null;
  /** A StatusFilter or ALL. */
  status: string | null;
  /** 'passed', an error code, or ALL. */
  result: string | null;
}

export const NO_FILTERS: DeviceFilters = { q: '', hub: null, status: null, result: null };

/** The choice of `choices` a value names, ignoring case; null for none or an unknown one. */
export function choiceOf(choices: readonly SelectOption[], value: string | null): string | null {
  const wanted = value?.trim().toLowerCase();
  return (wanted && choices.find((c) => c.value.toLowerCase() === wanted)?.value) || null;
}

/** The filters of the URL query ?q=&hub=&status=&result=; unknown statuses and results are ignored. */
export function filtersFromQuery(params: URLSearchParams): DeviceFilters {
  const hub = params.get('hub')?.trim();
  return {
    q: params.get('q') ?? '',
    hub: hub ? (hub.toLowerCase() === ALL ? ALL : hub) : null,
    status: choiceOf(STATUS_CHOICES, params.get('status')),
    result: choiceOf(RESULT_CHOICES, params.get('result')),
  };
}

/** The parameters of api/devices/ and api/devices/count/: the text trimmed; empty filters and 'All …' left out. */
export function filterParams(filters: DeviceFilters): Record<string, string> {
  const params: Record<string, string> = {};
  const q = filters.q.trim();
  if (q) params.q = q;
  for (const name of ['hub', 'status', 'result'] as const) {
    const value = filters[name];
    if (value && value !== ALL) params[name] = value;
  }
  return params;
}

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

export interface DeviceRow {
  record: DeviceRecord;
  timestamp: RecordTimestamp;
  sortKey: number;
  trackingIdLower: string;
  hubLower: string;
}

/** One record as the table shows it, with the keys the in-page sort and filters use. */
export function toDeviceRow(record: DeviceRecord): DeviceRow {
  const timestamp = recordTimestamp(record);
  return {
    record,
    timestamp,
    sortKey: timeValue(timestamp.time),
    trackingIdLower: (record.tracking_id.tracking_id ?? '').toLowerCase(),
    hubLower: (hubCodeOf(record) ?? '').toLowerCase(),
  };
}

/** One page of the list: its rows, the cursor of the page after it (null: this was the last) and the row that cursor names, as sent. */
export interface DevicePage {
  items: readonly DeviceRow[];
  next: string | null;
  boundary: DeviceRow | null;
}

/** Where a page starts and how many rows it asks for. */
export interface PageParam {
  after: string | null;
  limit: number;
}

export interface DevicePageAnswer {
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
  const { data } = await http.get<DevicePageAnswer>(DEVICES_PATH, { params, signal });
  if (!data || !Array.isArray(data.records)) throw new Error(`${DEVICES_PATH} did not answer a page of records`);
  const items = data.records.map(toDeviceRow);
  const next = typeof data.next === 'string' && data.next ? data.next : null;
  return { items, next, boundary: next === null ? null : (items[items.length - 1] ?? null) };
}

/** A list's count: `more` when a search matched more records than `total` and the server counted no further. */
export interface DeviceTotal {
  total: number;
  more: boolean;
}

/** GET api/devices/count/?<filters>: how many records the list named `key` holds. */
export async function fetchDeviceCount(key: string, signal?: AbortSignal): Promise<DeviceTotal> {
  const { data } = await http.get<{ total: number; more?: boolean }>(COUNT_PATH, { params: paramsOfKey(key), signal });
  if (typeof data?.total !== 'number') throw new Error(`${COUNT_PATH} did not answer a total`);
  return { total: data.total, more: data.more === true };
}

/** Rows asked for per page. */
export const PAGE_SIZE = 100;
/** The most asked for at once, when the user has scrolled far past what is loaded. */
export const MAX_PAGE_SIZE = 500;
/** How many rows beyond the last one in view are kept loaded. */
export const AHEAD = 50;

/**
 * The list named `key` (devicesKey) page by page. `lastInView` tells how far the user has
 * scrolled when the next page is asked for: far past the end (the scrollbar dragged down), bigger
 * pages, so fewer round trips.
 */
export function devicePagesQuery(key: string, lastInView: () => number) {
  return infiniteQueryOptions({
    queryKey: [RECORDS_KEY, DEVICES_PATH, key],
    queryFn: ({ pageParam, signal }) => fetchDevicePage(key, pageParam.after, pageParam.limit, signal),
    initialPageParam: { after: null, limit: PAGE_SIZE } as PageParam,
    getNextPageParam: (last, pages): PageParam | undefined => {
      if (last.next === null) return undefined;
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return {
        after: last.next,
        limit: Math.min(MAX_PAGE_SIZE, Math.max(PAGE_SIZE, lastInView() + AHEAD + 1 - loaded)),
      };
    },
  });
}

/** The total of the list named `key`. */
export function deviceCountQuery(key: string) {
  return queryOptions({
    queryKey: [RECORDS_KEY, COUNT_PATH, key],
    queryFn: ({ signal }) => fetchDeviceCount(key, signal),
  });
}
