// The pick list served a page at a time (server feature 'device-pages'): filters held in the URL
// query, the rows loaded as the user scrolls, and the hub choices.
import { gatherBursts, subscribeLiveEvents, throttle, useLiveEvents, useSearchParams } from '@veritas/shared';
import {
  keepPreviousData,
  useInfiniteQueryNow,
  useQueryClient,
  useQueryError,
  useQueryNow,
  type InfiniteData,
  type QueryClient,
} from '@veritas/shared/query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  AHEAD,
  deviceCountQuery,
  devicePagesQuery,
  devicesByIds,
  devicesKey,
  fetchDevicePage,
  hubsQuery,
  MAX_IDS,
  PAGE_SIZE,
  type DevicePage,
  type PageParam,
} from './api/devices';
import { filtersFromQuery, queryOfFilters, scrollRows, type DeviceFilters } from './device-pages';
import { placeChangedRows, type DeviceRow } from './device-rows';

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

export interface DevicePages {
  /** The rows loaded so far, in the server's order, of the list named by `shownKey`. */
  items: readonly DeviceRow[];
  /** The list the rows belong to; null until its first page has answered. */
  shownKey: string | null;
  /** How many rows the list asked for holds; undefined until the server has said (or when it failed to). */
  total: number | undefined;
  /** A search matched more than `total` records, which the server did not count further. */
  moreThanTotal: boolean;
  /** The total of the list asked for is on its way. */
  counting: boolean;
  /** More pages follow the rows loaded. */
  hasMore: boolean;
  /** No answer yet for any list: nothing to show. */
  loading: boolean;
  /** The filters changed and their first page has not arrived: the rows shown are the previous list's. */
  refreshing: boolean;
  /** A further page is being fetched. */
  loadingMore: boolean;
  /** Why the latest call for the list shown failed; undefined once a later one succeeds. */
  error: unknown;
  /** Rows of the scroll area: the server's total while more pages follow (placeholders past the rows loaded). */
  rowCount: number;
  /**
   * Tells the list the last row in view (the table's onRangeEnd). When it comes within AHEAD rows
   * of the end of the rows loaded, the next page is fetched, and the pages after it until the row
   * is covered. After a failure the next call (the next scroll) tries again.
   */
  showUpTo(index: number): void;
  /** Tells the list the row at the top of the view (the table's onRangeStart). */
  showFrom(index: number): void;
}

type Pages = InfiniteData<DevicePage, PageParam>;

/**
 * A changed record is re-read at once; those changed while a re-read is on its way, or within this
 * long after one began, are gathered and re-read together after it (docs/screens.md#live-updates).
 */
export const REREAD_AFTER_MS = 100;
/** The total, and the first page after an upload or a reset, are fetched again at most this often. */
export const REFRESH_EVERY_MS = 1000;

const NO_ROWS: readonly DeviceRow[] = [];

/** The rows of the pages in order; a page appended leaves out the rows a live change already put in place. */
function rowsOf(pages: readonly DevicePage[]): readonly DeviceRow[] {
  const seen = new Set<number>();
  const rows: DeviceRow[] = [];
  for (const page of pages)
    for (const row of page.items) {
      if (seen.has(row.record.id)) continue;
      seen.add(row.record.id);
      rows.push(row);
    }
  return rows;
}

/**
 * The pages with their rows replaced by `change(rows, boundary)`: `boundary` is the row the next
 * page's cursor names, as the server sent it (null when no page follows). Each page keeps its
 * cursor, so the next page continues after that row whatever `change` did above it.
 */
function changeRows(
  data: Pages,
  change: (rows: readonly DeviceRow[], boundary: DeviceRow | null) => DeviceRow[],
): Pages {
  const last = data.pages.length - 1;
  const rows = change(rowsOf(data.pages), data.pages[last]?.boundary ?? null);
  let at = 0;
  const pages = data.pages.map((page, index) => {
    const end = index === last ? rows.length : Math.min(rows.length, at + page.items.length);
    const items = rows.slice(at, end);
    at = end;
    return { ...page, items };
  });
  return { ...data, pages };
}

/**
 * The rows of the filtered list, newest first, loaded a page at a time (api/devices/) with the
 * total (api/devices/count/). Changing a filter asks for the first page at once and drops the
 * calls of the previous filters; the previous rows stay until that page arrives. `showUpTo(index)`
 * (the last row in view) fetches further pages. With the live event stream the rows loaded follow
 * the server's changes (useLiveDevicePages).
 */
export function useDevicePages(filters: DeviceFilters): DevicePages {
  const key = devicesKey(filters);
  /** The last row in view, as last told by showUpTo. */
  const lastInView = useRef(-1);
  // Read when the next page is asked for (fetchNextPage, from an effect); during render TanStack
  // only asks whether a next page exists, which the ref does not change.
  // eslint-disable-next-line react-hooks/refs
  const pagesQuery = devicePagesQuery(key, () => lastInView.current);
  const countQuery = deviceCountQuery(key);
  const pages = useInfiniteQueryNow({ ...pagesQuery, placeholderData: keepPreviousData });
  const count = useQueryNow({ ...countQuery, placeholderData: keepPreviousData });
  useQueryError(pages.error, logPageError);
  useQueryError(count.error, logPageError);

  // The list whose rows are shown: the previous one's stay (placeholder) until this one's first page.
  const [shownKey, setShownKey] = useState<string | null>(null);
  const answered = !pages.isPending && !pages.isPlaceholderData;
  if (answered && shownKey !== key) setShownKey(key);

  const items = useMemo(() => (pages.data ? rowsOf(pages.data.pages) : NO_ROWS), [pages.data]);
  // The count goes with the rows shown: while they are the previous list's, its count is not shown.
  const counted = count.isPlaceholderData || pages.isPlaceholderData ? undefined : count.data;
  const total = counted?.total;
  const hasMore = answered && pages.hasNextPage;

  // What the latest render showed, for the table's calls, which come from its effects.
  const latest = useRef({ pages, items, answered });
  useEffect(() => {
    latest.current = { pages, items, answered };
  });
  const loadMore = useCallback(() => {
    const { pages, items, answered } = latest.current;
    if (!answered || !pages.hasNextPage || pages.isFetchingNextPage) return;
    if (lastInView.current >= items.length - AHEAD) void pages.fetchNextPage({ cancelRefetch: false });
  }, []);
  // Each page shown (a first page, or one appended) may still leave the row in view uncovered.
  useEffect(() => loadMore(), [items, answered, loadMore]);
  const showUpTo = useCallback(
    (index: number) => {
      lastInView.current = index;
      loadMore();
    },
    [loadMore],
  );

  const showFrom = useLiveDevicePages(key, pagesQuery.queryKey, countQuery.queryKey);
  return {
    items,
    shownKey: pages.isPending && !pages.isPlaceholderData ? null : (shownKey ?? key),
    total,
    moreThanTotal: counted?.more ?? false,
    counting: count.isPlaceholderData || count.isPending || pages.isPlaceholderData,
    hasMore,
    loading: pages.isPending && !pages.isPlaceholderData,
    refreshing: pages.isPlaceholderData,
    loadingMore: pages.isFetchingNextPage,
    error: pages.error ?? undefined,
    rowCount: scrollRows(items.length, total, hasMore),
    showUpTo,
    showFrom,
  };
}

/** Replaces the loaded pages of `queryKey` with its first page, once that has answered; the rows shown stay until then. */
function reloadFirstPage(client: QueryClient, queryKey: readonly unknown[], key: string) {
  fetchDevicePage(key, null, PAGE_SIZE).then(
    (page) => client.setQueryData<Pages>(queryKey, { pages: [page], pageParams: [{ after: null, limit: PAGE_SIZE }] }),
    logPageError,
  );
}

/**
 * docs/screens.md#live-updates. The records of 'submitted', 'verified' and 'detached' events are
 * re-read through the list's own query (api/devices/?ids=, at most MAX_IDS a call): at once, or,
 * those coming while a re-read is on its way or within REREAD_AFTER_MS of its start, together
 * after it (one re-read at a time, so an older answer never lands over a newer one). Each goes to
 * its place, stays, or leaves the rows loaded, and the total is asked again (at most once per
 * REFRESH_EVERY_MS). An upload's records carry their created date, which may fall anywhere in the
 * list: while the top of the list is in view its first page is fetched again; otherwise only the
 * total, and the first page once the user is back at the top, so the rows the user is reading do
 * not move. A reset fetches the list again. Answers showFrom.
 */
function useLiveDevicePages(
  key: string,
  pagesKey: readonly unknown[],
  countKey: readonly unknown[],
): (index: number) => void {
  const client = useQueryClient();
  const latest = useRef({ key, pagesKey, countKey });
  useEffect(() => {
    latest.current = { key, pagesKey, countKey };
  });
  /** Whether the row at the top of the view is the list's first. */
  const atTop = useRef(true);
  /** An upload happened while the user was further down: its rows are fetched once back at the top. */
  const uploadMissed = useRef(false);
  const reloadTop = useRef<() => void>(() => {});

  useEffect(() => {
    const changed = new Set<number>();
    const recount = throttle(
      () => void client.invalidateQueries({ queryKey: latest.current.countKey, exact: true }),
      REFRESH_EVERY_MS,
    );
    const reload = throttle(() => {
      const { key, pagesKey } = latest.current;
      reloadFirstPage(client, pagesKey, key);
      recount();
    }, REFRESH_EVERY_MS);
    reloadTop.current = reload;
    const reread = gatherBursts(() => {
      const { key, pagesKey } = latest.current;
      const ids = [...changed];
      changed.clear();
      const calls = [];
      for (let at = 0; at < ids.length; at += MAX_IDS) {
        const asked = ids.slice(at, at + MAX_IDS);
        calls.push(
          devicesByIds(key, asked).then((matching) => {
            const askedSet = new Set(asked);
            client.setQueryData<Pages>(
              pagesKey,
              (data) =>
                data && changeRows(data, (rows, boundary) => placeChangedRows(rows, askedSet, matching, boundary)),
            );
          }, logPageError),
        );
      }
      recount();
      return Promise.all(calls);
    }, REREAD_AFTER_MS);
    const unsubscribe = subscribeLiveEvents('records', (message) => {
      if (message.type === 'reset') {
        changed.clear();
        reread.cancel();
        return reload();
      }
      const event = message.data;
      if (event.action !== 'uploaded') {
        for (const record of event.records) changed.add(record.id);
        return reread();
      }
      if (atTop.current) return reload();
      uploadMissed.current = true;
      recount();
    });
    return () => {
      unsubscribe();
      reread.cancel();
      recount.cancel();
      reload.cancel();
    };
  }, [client]);

  return useCallback((index: number) => {
    atTop.current = index <= 0;
    if (atTop.current && uploadMissed.current) {
      uploadMissed.current = false;
      reloadTop.current();
    }
  }, []);
}

const NO_HUBS: string[] = [];

/**
 * The hub codes of the Hub filter (api/devices/hubs/), fetched once per visit; none while loading
 * or after a failure. An upload naming a hub not offered yet fetches them again.
 */
export function useDeviceHubs(): string[] {
  const client = useQueryClient();
  const { data: hubs = NO_HUBS, error } = useQueryNow(hubsQuery);
  useQueryError(error, logHubsError);
  const reload = () => void client.invalidateQueries({ queryKey: hubsQuery.queryKey });
  // An upload sends an event per batch stored: each new hub is asked for once.
  const asked = useRef(new Set<string>());
  useLiveEvents('records', (message) => {
    if (message.type === 'reset') return reload();
    if (message.data.action !== 'uploaded') return;
    const offered = new Set(hubs.map((hub) => hub.toLowerCase()));
    const fresh = message.data.hubs
      .map((hub) => hub.trim().toLowerCase())
      .filter((hub) => hub && !offered.has(hub) && !asked.current.has(hub));
    if (!fresh.length) return;
    for (const hub of fresh) asked.current.add(hub);
    reload();
  });
  return hubs;
}
