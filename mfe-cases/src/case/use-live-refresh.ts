// For the Cases remote's extensions: a query of cases read again when the live event `cases`
// comes (or the stream resets), at most once per LIVE_REFRESH_MS however many come.
import { subscribeLiveEvents, throttle } from '@veritas/shared';
import { useQueryClient, type QueryKey } from '@veritas/shared/query';
import { useEffect, useRef } from 'react';

export const LIVE_REFRESH_MS = 5000;

export function useLiveRefresh(queryKey: QueryKey): void {
  const client = useQueryClient();
  const latest = useRef(queryKey);
  useEffect(() => {
    latest.current = queryKey;
  });
  useEffect(() => {
    const refresh = throttle(() => void client.invalidateQueries({ queryKey: latest.current }), LIVE_REFRESH_MS);
    const unsubscribe = subscribeLiveEvents('cases', () => refresh());
    return () => {
      unsubscribe();
      refresh.cancel();
    };
  }, [client]);
}
