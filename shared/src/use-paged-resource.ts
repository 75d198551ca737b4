// A long list loaded a page at a time as the user scrolls (docs/architecture.md#loading-data): the
// companion of useResource for lists the server pages with a keyset cursor.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** One page of a list: its items and the cursor of the page after it (null: this was the last). */
export interface Page<T> {
  items: readonly T[];
  next: string | null;
}

export interface PagedLoad<T> {
  /** The page of the list named `key` after cursor `after` (null: the first page), at most `limit` items. */
  page(key: string, after: string | null, limit: number, signal: AbortSignal): Promise<Page<T>>;
  /** How many items the whole list holds, when the server can tell. */
  total?(key: string, signal: AbortSignal): Promise<number>;
}

export interface PagedOptions<T> {
  /** Items asked for per page (default 100). */
  pageSize?: number;
  /** The most asked for at once, when the user has scrolled far past what is loaded (default 500). */
  maxPageSize?: number;
  /** How many items beyond the last one in view are kept loaded (default 50). */
  ahead?: number;
  /** Called with each failure of a call for the current key (never for a stale one, never after the page was left). */
  onError?(error: unknown): void;
  /**
   * Names an item: a page appended leaves out the items already loaded (a change made with
   * `update` may have put one in place while that page was on its way).
   */
  idOf?(item: T): string | number;
}

export interface PagedResource<T> {
  /** The items loaded so far, in the server's order, of the key named by `shownKey`. */
  items: readonly T[];
  /** The key the items belong to; null until the first answer. */
  shownKey: string | null;
  /** How many items the list of `shownKey` holds; undefined until the server has said (or when it failed to). */
  total: number | undefined;
  /** The total of the key asked for is on its way (with a refresh, the total shown is still the previous key's). */
  counting: boolean;
  /** More pages follow the items loaded. */
  hasMore: boolean;
  /** No answer yet for any key: nothing to show. */
  loading: boolean;
  /** The key changed and its first page has not arrived: the items shown are the previous key's. */
  refreshing: boolean;
  /** A further page is being fetched. */
  loadingMore: boolean;
  /** Why the latest call for the shown key failed; undefined once a later one succeeds. */
  error: unknown;
  /**
   * Tells the hook the last index in view. When it comes within `ahead` of the end of the items
   * loaded, the next page is fetched, and the pages after it until the index is covered. After a
   * failure the next call (the next scroll) tries again.
   */
  showUpTo(index: number): void;
  /**
   * Changes the items loaded of the list `key`, e.g. by items the server changed since
   * (docs/events.md). `change` gets the items and the item the next page's cursor names (the last
   * one the server sent, as it was sent; null when no page follows) and answers the new items in
   * the server's order. The cursor is a position in the order: the next page brings what sorts
   * after that item, whatever `change` did above it. Nothing happens while another list is shown.
   */
  update(key: string, change: (items: readonly T[], boundary: T | null) => readonly T[]): void;
  /** Asks the shown list's total again; the total shown stays until the answer (and after a failure). */
  recount(): void;
  /**
   * Fetches the shown list again from its first page (and its total). The items shown stay, without
   * `refreshing`, until that page replaces them; the pages after it load again as the user scrolls.
   */
  reload(): void;
}

interface FirstCall<T> {
  key: string;
  controller: AbortController;
  page: Promise<Page<T>>;
  total: Promise<number> | undefined;
}

/**
 * First pages not answered yet, by key. As with useResource, a page's first call starts with its
 * first render, and renders before a commit (StrictMode, a discarded render) share it.
 */
const firstCalls = new Map<string, FirstCall<unknown>>();

function startFirstCall<T>(key: string, load: PagedLoad<T>, pageSize: number): FirstCall<T> {
  const controller = new AbortController();
  return {
    key,
    controller,
    page: load.page(key, null, pageSize, controller.signal),
    total: load.total?.(key, controller.signal),
  };
}

function firstCall<T>(key: string, load: PagedLoad<T>, pageSize: number): FirstCall<T> {
  const pending = firstCalls.get(key) as FirstCall<T> | undefined;
  if (pending && !pending.controller.signal.aborted) return pending;
  const call = startFirstCall(key, load, pageSize);
  firstCalls.set(key, call);
  const forget = () => {
    if (firstCalls.get(key) === call) firstCalls.delete(key);
  };
  void Promise.allSettled([call.page, call.total]).then(forget);
  return call;
}

interface Shown<T> {
  key: string;
  items: readonly T[];
  next: string | null;
  /** The last item sent, which `next` names; null when no page follows. */
  boundary: T | null;
  total: number | undefined;
  error: unknown;
}

interface State<T> {
  /** The first call for the key asked for. */
  first: FirstCall<T>;
  /** What is shown: the latest key whose first page has answered. */
  shown: Shown<T> | null;
  /** The latest total answered, with its key: undefined when that call failed. */
  total: { key: string; value: number | undefined } | null;
  loadingMore: boolean;
}

const NO_ITEMS: readonly never[] = [];

/**
 * Loads the list named `key` page by page. `key` names the list (for instance the call's path and
 * filters): lists with the same key must be interchangeable. When it changes, the calls for the
 * previous key are aborted and the new key's first page (and total) are fetched; the previous items
 * stay shown until that page arrives, so typing in a filter does not blank the list.
 */
export function usePagedResource<T>(key: string, load: PagedLoad<T>, options: PagedOptions<T> = {}): PagedResource<T> {
  const { pageSize = 100, maxPageSize = 500, ahead = 50, onError, idOf } = options;
  const [state, setState] = useState<State<T>>(() => ({
    first: firstCall(key, load, pageSize),
    shown: null,
    total: null,
    loadingMore: false,
  }));
  let current = state;
  if (state.first.key !== key) {
    current = { ...state, first: firstCall(key, load, pageSize), loadingMore: false };
    setState(current);
  }

  // What the latest committed render passed and showed, for calls made and answered later. A
  // layout effect: the list's rows (children) report what is in view in their own effects, which
  // run before this component's, and must not see the state before this commit.
  const latest = useRef({ load, onError, pageSize, maxPageSize, ahead, idOf });
  const committed = useRef(current);
  useLayoutEffect(() => {
    latest.current = { load, onError, pageSize, maxPageSize, ahead, idOf };
    committed.current = current;
  });

  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  /** The further page under way; only its answer is used. */
  const more = useRef<AbortController | null>(null);
  /** The last index in view, as last told by showUpTo. */
  const wanted = useRef(-1);
  /** The total asked again by recount; only its answer is used. */
  const recounting = useRef<AbortController | null>(null);

  // Once per first call: an effect run again (StrictMode, <Activity>) must not follow it twice.
  const followed = useRef<FirstCall<T> | null>(null);
  const first = current.first;
  useEffect(() => {
    if (followed.current === first) return;
    const before = followed.current;
    followed.current = first;
    if (before && before.key !== first.key) before.controller.abort();
    more.current?.abort();
    more.current = null;
    recounting.current?.abort();
    recounting.current = null;
    const following = () => mounted.current && followed.current === first;
    first.page.then(
      (page) => {
        if (!following()) return;
        setState((s) =>
          s.first !== first
            ? s
            : {
                ...s,
                shown: {
                  key: first.key,
                  items: page.items,
                  next: page.next,
                  boundary: boundaryOf(page),
                  total: s.total?.key === first.key ? s.total.value : undefined,
                  error: undefined,
                },
                loadingMore: false,
              },
        );
      },
      (error: unknown) => {
        if (!following()) return;
        setState((s) =>
          s.first !== first
            ? s
            : {
                ...s,
                shown: { key: first.key, items: NO_ITEMS, next: null, boundary: null, total: undefined, error },
                loadingMore: false,
              },
        );
        latest.current.onError?.(error);
      },
    );
    first.total?.then(
      (value) => {
        if (!following()) return;
        setState((s) =>
          s.first !== first
            ? s
            : {
                ...s,
                total: { key: first.key, value },
                shown: s.shown?.key === first.key ? { ...s.shown, total: value } : s.shown,
              },
        );
      },
      (error: unknown) => {
        if (!following()) return;
        setState((s) => (s.first !== first ? s : { ...s, total: { key: first.key, value: undefined } }));
        latest.current.onError?.(error);
      },
    );
  }, [first]);

  /** Fetches the page after the items shown if the index in view needs it and none is under way. */
  const loadMore = useCallback(() => {
    const { first, shown } = committed.current;
    if (!mounted.current || !shown || shown.key !== first.key || shown.next === null || more.current) return;
    const { load, pageSize, maxPageSize, ahead } = latest.current;
    const loaded = shown.items.length;
    if (wanted.current < loaded - ahead) return;
    // Far past the end (the scrollbar dragged down): bigger pages, so fewer round trips.
    const limit = Math.min(maxPageSize, Math.max(pageSize, wanted.current + ahead + 1 - loaded));
    const { key, next: after } = shown;
    const controller = new AbortController();
    more.current = controller;
    setState((s) => ({ ...s, loadingMore: true }));
    const settle = (update: (shown: Shown<T>) => Shown<T>) => {
      if (more.current !== controller) return false;
      more.current = null;
      if (!mounted.current) return false;
      setState((s) =>
        s.shown?.key === key && s.shown.next === after
          ? { ...s, shown: update(s.shown), loadingMore: false }
          : { ...s, loadingMore: false },
      );
      return true;
    };
    load.page(key, after, limit, controller.signal).then(
      (page) =>
        settle((s) => ({
          ...s,
          items: appended(s.items, page.items, latest.current.idOf),
          next: page.next,
          boundary: boundaryOf(page),
          error: undefined,
        })),
      (error: unknown) => {
        // The items stay; the next showUpTo (a further scroll) asks again.
        if (settle((s) => ({ ...s, error }))) latest.current.onError?.(error);
      },
    );
  }, []);

  // Each page shown (a first page, or one appended) may still leave the index in view uncovered.
  const items = current.shown?.items;
  useEffect(() => {
    loadMore();
  }, [items, loadMore]);

  const showUpTo = useCallback(
    (index: number) => {
      wanted.current = index;
      loadMore();
    },
    [loadMore],
  );

  const update = useCallback((key: string, change: (items: readonly T[], boundary: T | null) => readonly T[]) => {
    setState((s) =>
      s.shown?.key === key ? { ...s, shown: { ...s.shown, items: change(s.shown.items, s.shown.boundary) } } : s,
    );
  }, []);

  const recount = useCallback(() => {
    const { first, shown } = committed.current;
    const { load } = latest.current;
    if (!mounted.current || !load.total || shown?.key !== first.key) return;
    recounting.current?.abort();
    const controller = new AbortController();
    recounting.current = controller;
    const { key } = first;
    const settled = () => {
      if (recounting.current !== controller) return false;
      recounting.current = null;
      return mounted.current;
    };
    load.total(key, controller.signal).then(
      (value) => {
        if (!settled()) return;
        setState((s) =>
          s.first.key !== key
            ? s
            : { ...s, total: { key, value }, shown: s.shown?.key === key ? { ...s.shown, total: value } : s.shown },
        );
      },
      (error: unknown) => {
        if (settled()) latest.current.onError?.(error);
      },
    );
  }, []);

  const reload = useCallback(() => {
    const { first, shown } = committed.current;
    if (!mounted.current || shown?.key !== first.key) return;
    const { load, pageSize } = latest.current;
    // Not the shared first call: one still pending may have been read before what is reloaded for.
    const call = startFirstCall(first.key, load, pageSize);
    setState((s) => (s.first === first ? { ...s, first: call, loadingMore: false } : s));
  }, []);

  const { shown } = current;
  return {
    items: shown?.items ?? NO_ITEMS,
    shownKey: shown?.key ?? null,
    total: shown?.total,
    counting: current.first.total !== undefined && current.total?.key !== key,
    hasMore: shown?.next != null,
    loading: shown === null,
    refreshing: shown !== null && shown.key !== key,
    loadingMore: current.loadingMore,
    error: shown?.error,
    showUpTo,
    update,
    recount,
    reload,
  };
}

function boundaryOf<T>(page: Page<T>): T | null {
  return page.next === null ? null : (page.items[page.items.length - 1] ?? null);
}

/** `items` followed by those of `page` not among them (by `idOf`; all of them without it). */
function appended<T>(
  items: readonly T[],
  page: readonly T[],
  idOf: ((item: T) => string | number) | undefined,
): readonly T[] {
  if (!idOf) return [...items, ...page];
  const loaded = new Set(items.map(idOf));
  return [...items, ...page.filter((item) => !loaded.has(idOf(item)))];
}
