// Entry point @veritas/shared/query: TanStack Query, the console's one QueryClient and the helpers
// every page loads with (docs/architecture.md#loading-data). Not part of the main entry, which the
// shell loads before its login form: the shell's signed-in layout and the remotes import it.
import {
  hashKey,
  QueryClient,
  QueryClientProvider,
  useQueryClient,
  useInfiniteQuery,
  usePrefetchInfiniteQuery,
  usePrefetchQuery,
  useQuery,
  type DefaultError,
  type InvalidateQueryFilters,
  type QueryKey,
  type UseInfiniteQueryOptions,
  type UsePrefetchInfiniteQueryOptions,
  type UsePrefetchQueryOptions,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';

export {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  keepPreviousData,
  type InfiniteData,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';

/**
 * A client with the console's defaults: a failed call is shown, not tried again behind the user's
 * back (the pages say what failed, and a further scroll or a live event asks again); a page's data
 * is fetched once per visit and then kept current by live events, not by focus or reconnection.
 * A change (mutation) is dropped from the cache as soon as no component holds it (gcTime 0), where
 * TanStack Query keeps it five minutes: no page reads a change once done, and some carry a secret
 * or a password the page must keep no copy of once it has shown or sent it.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false, gcTime: 0 },
    },
  });
}

// @veritas/shared/query is a Module Federation singleton; should a second copy of this module ever
// load, the global key still gives the shell and every remote the same cache (as session.ts does).
const clientKey = Symbol.for('veritas.queryClient');
const registry = globalThis as typeof globalThis & { [clientKey]?: QueryClient };

/** The console's one QueryClient. */
export const queryClient: QueryClient = (registry[clientKey] ??= createQueryClient());

/** Provides `client` (default: the console's one) to the pages below: the signed-in layout and each remote alone. */
export function QueryProvider({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/**
 * Reads the queries of `filters` again after a change (a live event): invalidateQueries, but a
 * first call still on its way is cancelled and made again. invalidateQueries would wait for it
 * (TanStack Query restarts only a call whose query has an answer already), and the server may
 * have read it before the change: the page would show the older answer until the next event. For
 * events that come seldom (cases, users, groups, a reset); the records stream, many a second under
 * load, keeps invalidateQueries: its next event reads again soon, and restarting the first call at
 * each could keep a page from ever getting its first answer.
 */
export async function refreshQueries(client: QueryClient, filters: InvalidateQueryFilters): Promise<void> {
  await client.cancelQueries(filters);
  await client.invalidateQueries(filters);
}

// Counts, not times: an answer in the same millisecond as a render must still count as before or after it.
const answersOf = (client: QueryClient, queryKey: QueryKey) => client.getQueryState(queryKey)?.dataUpdateCount ?? 0;

/**
 * refetchOnMount for a component whose first render with a key started its call: an answer that
 * arrived since that render (before React committed the component) is this visit's, not one to
 * fetch again; an older one (a page visited before) is fetched again.
 */
function useRefetchOnMountUnlessAnsweredSinceFirstRender(queryKey: QueryKey) {
  const client = useQueryClient();
  // Answers each key had at this component's first render with it; a record of renders, not state.
  const [answersAtFirstRender] = useState(() => new Map<string, number>());
  const hash = hashKey(queryKey);
  if (!answersAtFirstRender.has(hash)) answersAtFirstRender.set(hash, answersOf(client, queryKey));
  return (query: { queryHash: string; state: { dataUpdateCount: number } }) =>
    query.state.dataUpdateCount <= (answersAtFirstRender.get(query.queryHash) ?? Infinity);
}

/**
 * useQuery whose call starts with the component's first render, not after its commit: React holds
 * a just-loaded lazy page back before committing it, and the page's call should not wait for that.
 * Renders before a commit (StrictMode, a discarded render) share the one call of the key.
 */
export function useQueryNow<TData, TKey extends QueryKey = QueryKey>(
  options: UseQueryOptions<TData, DefaultError, TData, TKey> &
    UsePrefetchQueryOptions<TData, DefaultError, TData, TData, TKey>,
) {
  const refetchOnMount = useRefetchOnMountUnlessAnsweredSinceFirstRender(options.queryKey);
  usePrefetchQuery(options);
  return useQuery({ refetchOnMount, ...options });
}

/** useInfiniteQuery whose first page starts with the component's first render (see useQueryNow). */
export function useInfiniteQueryNow<TPage, TData, TKey extends QueryKey, TCursor>(
  options: UseInfiniteQueryOptions<TPage, DefaultError, TData, TKey, TCursor> &
    UsePrefetchInfiniteQueryOptions<TPage, DefaultError, TData, TKey, TCursor>,
) {
  const refetchOnMount = useRefetchOnMountUnlessAnsweredSinceFirstRender(options.queryKey);
  usePrefetchInfiniteQuery(options);
  return useInfiniteQuery({ refetchOnMount, ...options });
}

/** Calls `onError` once with each failure `error` shows, while the component is mounted. */
export function useQueryError(error: unknown, onError: (error: unknown) => void): void {
  const report = useEffectEvent(onError);
  useEffect(() => {
    if (error) report(error);
  }, [error]);
}
