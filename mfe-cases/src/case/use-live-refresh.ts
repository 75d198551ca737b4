// For the Cases remote's extensions: a query of cases read again when the live event `cases`
// comes (or the stream resets), at most once per LIVE_REFRESH_MS however many come, from the
// component's first render on (the query's first call starts there).
import { subscribeLiveEventsSince, throttle, useLiveEventMark } from '@veritas/shared';
import { refreshQueries, useQueryClient, type QueryKey } from '@veritas/shared/query';
import { useEffect, useRef } from 'react';

export const LIVE_REFRESH_MS = 5000;

export function useLiveRefresh(queryKey: QueryKey): void {
  const client = useQueryClient();
  const since = useLiveEventMark('cases');
  const latest = useRef(queryKey);
  useEffect(() => {
    latest.current = queryKey;
  });
  useEffect(() => {
    const refresh = throttle(() => void refreshQueries(client, { queryKey: latest.current }), LIVE_REFRESH_MS);
    const unsubscribe = subscribeLiveEventsSince('cases', since, () => refresh());
    return () => {
      unsubscribe();
      refresh.cancel();
    };
  }, [client, since]);
}
