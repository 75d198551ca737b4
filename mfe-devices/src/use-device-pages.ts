// The pick list served a page at a time (server feature 'device-pages'): filters held in the URL
// query, the rows loaded as the user scrolls, and the hub choices.
import { subscribeLiveEvents, throttle, useLiveEvents, useResource, useSearchParams } from '@veritas/shared';
import { usePagedResource, type PagedResource } from '@veritas/shared/paged';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  DEVICE_PAGES,
  devicesByIds,
  devicesKey,
  filtersFromQuery,
  getDeviceHubs,
  HUBS_PATH,
  MAX_IDS,
  queryOfFilters,
  scrollRows,
  type DeviceFilters,
} from './device-pages';
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

export interface DevicePages extends PagedResource<DeviceRow> {
  /** Rows of the scroll area: the server's total while more pages follow (placeholders past the rows loaded). */
  rowCount: number;
  /** Tells the list the row at the top of the view (the table's onRangeStart). */
  showFrom(index: number): void;
}

const rowId = (row: DeviceRow) => row.record.id;

/** Changed records are gathered this long, then re-read in one call (docs/screens.md#live-updates). */
export const REREAD_AFTER_MS = 200;
/** The total, and the first page after an upload or a reset, are fetched again at most this often. */
export const REFRESH_EVERY_MS = 1000;

/**
 * The rows of the filtered list, newest first, loaded a page at a time (api/devices/) with the
 * total (api/devices/count/). Changing a filter asks for the first page at once and drops the
 * calls of the previous filters; `showUpTo(index)` (the last row in view) fetches further pages.
 * With the live event stream the rows loaded follow the server's changes (useLiveDevicePages).
 */
export function useDevicePages(filters: DeviceFilters): DevicePages {
  const key = devicesKey(filters);
  const pages = usePagedResource(key, DEVICE_PAGES, { onError: logPageError, idOf: rowId });
  const showFrom = useLiveDevicePages(key, pages);
  return { ...pages, rowCount: scrollRows(pages.items.length, pages.total, pages.hasMore), showFrom };
}

/**
 * docs/screens.md#live-updates. The records of 'submitted', 'verified' and 'detached' events are
 * gathered for REREAD_AFTER_MS, then re-read through the list's own query (api/devices/?ids=, at
 * most MAX_IDS a call): each goes to its place, stays, or leaves the rows loaded, and the total is
 * asked again (at most once per REFRESH_EVERY_MS). An upload's records carry their created date,
 * which may fall anywhere in the list: while the top of the list is in view its first page is
 * fetched again; otherwise only the total, and the first page once the user is back at the top,
 * so the rows the user is reading do not move. A reset fetches the list again. Answers showFrom.
 */
function useLiveDevicePages(key: string, pages: PagedResource<DeviceRow>): (index: number) => void {
  const latest = useRef({ key, pages });
  useEffect(() => {
    latest.current = { key, pages };
  });
  /** Whether the row at the top of the view is the list's first. */
  const atTop = useRef(true);
  /** An upload happened while the user was further down: its rows are fetched once back at the top. */
  const uploadMissed = useRef(false);
  const reloadTop = useRef<() => void>(() => {});

  useEffect(() => {
    const changed = new Set<number>();
    const recount = throttle(() => latest.current.pages.recount(), REFRESH_EVERY_MS);
    const reload = throttle(() => latest.current.pages.reload(), REFRESH_EVERY_MS);
    reloadTop.current = reload;
    const reread = throttle(
      () => {
        const { key, pages } = latest.current;
        const ids = [...changed];
        changed.clear();
        for (let at = 0; at < ids.length; at += MAX_IDS) {
          const asked = ids.slice(at, at + MAX_IDS);
          devicesByIds(key, asked).then((matching) => {
            const askedSet = new Set(asked);
            pages.update(key, (rows, boundary) => placeChangedRows(rows, askedSet, matching, boundary));
          }, logPageError);
        }
        recount();
      },
      REREAD_AFTER_MS,
      { leading: false },
    );
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
  }, []);

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
  const { data: hubs = NO_HUBS, reload } = useResource(HUBS_PATH, getDeviceHubs, { onError: logHubsError });
  // An upload sends an event per batch stored: each new hub is asked for once.
  const asked = useRef(new Set<string>());
  useLiveEvents('records', (message) => {
    if (message.type === 'reset') return void reload();
    if (message.data.action !== 'uploaded') return;
    const offered = new Set(hubs.map((hub) => hub.toLowerCase()));
    const fresh = message.data.hubs
      .map((hub) => hub.trim().toLowerCase())
      .filter((hub) => hub && !offered.has(hub) && !asked.current.has(hub));
    if (!fresh.length) return;
    for (const hub of fresh) asked.current.add(hub);
    void reload();
  });
  return hubs;
}
