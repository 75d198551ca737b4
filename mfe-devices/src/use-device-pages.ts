// The pick list served a page at a time (server feature 'device-pages'): the rows of the filters,
// loaded as the user scrolls, with their total.
import { keepPreviousData, useInfiniteQueryNow, useQueryError, useQueryNow } from '@veritas/shared/query';
import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { AHEAD, deviceCountQuery, devicePagesQuery, devicesKey } from './api/devices';
import { scrollRows, type DeviceFilters } from './device-pages';
import type { DeviceRow } from './device-rows';
import { rowsOf } from './loaded-pages';
import { useLiveDevicePages } from './use-live-device-pages';

// docs/errors.md#device-pick-list: failures are only logged.
const logPageError = (error: unknown) => console.error('Failed to fetch device records', error);

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

const NO_ROWS: readonly DeviceRow[] = [];

/** The last row in view, as far as the next page cares: one well within the rows loaded is any. */
interface View {
  lastInView: number;
}
const WITHIN_ROWS: View = { lastInView: -Infinity };

/**
 * The rows of the filtered list, newest first, loaded a page at a time (api/devices/) with the
 * total (api/devices/count/). Changing a filter asks for the first page at once and drops the
 * calls of the previous filters; the previous rows stay until that page arrives. `showUpTo(index)`
 * (the last row in view) fetches further pages. With the live event stream the rows loaded follow
 * the server's changes (useLiveDevicePages).
 */
export function useDevicePages(filters: DeviceFilters): DevicePages {
  const key = devicesKey(filters);
  // A new object for each report near the end: a report after a failure asks again.
  const [view, setView] = useState<View>({ lastInView: -1 });
  const pages = useInfiniteQueryNow({ ...devicePagesQuery(key, view.lastInView), placeholderData: keepPreviousData });
  const count = useQueryNow({ ...deviceCountQuery(key), placeholderData: keepPreviousData });
  useQueryError(pages.error, logPageError);
  useQueryError(count.error, logPageError);

  const loading = pages.isPending && !pages.isPlaceholderData;
  const answered = !pages.isPending && !pages.isPlaceholderData;
  const items = useMemo(() => (pages.data ? rowsOf(pages.data.pages) : NO_ROWS), [pages.data]);
  // The count goes with the rows shown: while they are the previous list's, its count is not shown.
  const counted = count.isPlaceholderData || pages.isPlaceholderData ? undefined : count.data;
  const hasMore = answered && pages.hasNextPage;

  const loaded = items.length;
  // A row within the rows loaded changes nothing; re-made when rows are added or removed, so the
  // table tells its last row again.
  const showUpTo = useCallback(
    (index: number) => setView(index >= loaded - AHEAD ? { lastInView: index } : WITHIN_ROWS),
    [loaded, setView],
  );
  const fetchNext = useEffectEvent(() => {
    if (answered && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage({ cancelRefetch: false });
  });
  // Each page shown (a first page, or one appended) may still leave the row in view uncovered.
  useEffect(() => {
    if (view.lastInView >= loaded - AHEAD) fetchNext();
  }, [view, loaded, answered]);

  const showFrom = useLiveDevicePages(key);
  return {
    items,
    shownKey: loading ? null : (pages.data?.pages[0]?.list ?? key),
    total: counted?.total,
    moreThanTotal: counted?.more ?? false,
    counting: count.isPlaceholderData || count.isPending || pages.isPlaceholderData,
    hasMore,
    loading,
    refreshing: pages.isPlaceholderData,
    loadingMore: pages.isFetchingNextPage,
    error: pages.error ?? undefined,
    rowCount: scrollRows(items.length, counted?.total, hasMore),
    showUpTo,
    showFrom,
  };
}
