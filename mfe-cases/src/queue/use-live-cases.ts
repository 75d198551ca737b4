// The Cases queue following the live event `cases` (a case opened or changed): the queue's pages
// and its count are fetched again, at most once per LIVE_REFRESH_MS however many cases change, so
// new and changed cases show without a reload. A reset fetches every cases query again.
import { subscribeLiveEventsSince, throttle, useLiveEventMark } from '@veritas/shared';
import { refreshQueries, useQueryClient } from '@veritas/shared/query';
import { useEffect } from 'react';
import { CASES_KEY } from '../api/cases';

/** A burst of case changes refreshes the queue at most this often (the first change at once). */
export const LIVE_REFRESH_MS = 1000;

/** The queries of the queue (casePagesQuery, caseCountQuery), of every filter. */
export const QUEUE_KEYS = [
  [...CASES_KEY, 'pages'],
  [...CASES_KEY, 'count'],
] as const;

export function useLiveCases(): void {
  const client = useQueryClient();
  const since = useLiveEventMark('cases');
  useEffect(() => {
    // The event carries the case, but whether and where it belongs in the pages loaded is the
    // server's to say (filters such as `me`, and the keyset order): the pages are read again.
    const refresh = throttle(() => {
      for (const queryKey of QUEUE_KEYS) void refreshQueries(client, { queryKey });
    }, LIVE_REFRESH_MS);
    const unsubscribe = subscribeLiveEventsSince('cases', since, (message) => {
      if (message.type === 'reset') return void refreshQueries(client, { queryKey: CASES_KEY });
      refresh();
    });
    return () => {
      unsubscribe();
      refresh.cancel();
    };
  }, [client, since]);
}
