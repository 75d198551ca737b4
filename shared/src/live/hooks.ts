// The live event stream in React components: its status, subscriptions that follow a component's
// life, and a list of every record kept current in the query cache.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { DeviceRecord, LiveEventType } from '../types';
import {
  liveEventMark,
  liveStatusStore,
  subscribeLiveEvents,
  subscribeLiveEventsSince,
  type LiveMessage,
  type LiveStatus,
} from './connection';
import { applyRecordChanges, throttle } from './utils';

/** The stream's status for the live indicator; null while no stream is in use. */
export function useLiveStatus(): LiveStatus | null {
  return liveStatusStore((s) => s.status);
}

/**
 * The liveEventMark of `type` at the component's first render, where it starts its queries: its
 * effect's subscription, made after that render, then hears of the events that came in between.
 */
export function useLiveEventMark(type: LiveEventType): number {
  const [mark] = useState(() => liveEventMark(type));
  return mark;
}

/**
 * subscribeLiveEvents for a component: follows its latest `handler` while it is mounted, from its
 * first render on (an event before the subscription is told as a reset).
 */
export function useLiveEvents<T extends LiveEventType>(type: T, handler: (message: LiveMessage<T>) => void): void {
  const since = useLiveEventMark(type);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => subscribeLiveEventsSince(type, since, (message) => latest.current(message)), [type, since]);
}

/** How often a list of every record (api/get_status/) is fetched again at most, for uploads and resets. */
export const STATUS_RELOAD_MS = 10_000;

/**
 * Keeps the list of every record cached under `queryKey` (api/get_status/, a spec-shaped answer)
 * current: the records of 'submitted', 'verified' and 'detached' events are put in at most once per
 * `applyEvery` ms; an upload (whose records the event does not carry) or a reset fetches the whole
 * list again, at most once per STATUS_RELOAD_MS. Changes applied while that fetch is on its way are
 * applied again over its answer, which may have been read before them. `null`: the page does not
 * show such a list now. `client` comes from the caller (useQueryClient), so this entry point does
 * not carry TanStack Query itself.
 */
export function useLiveRecords(
  client: QueryClient,
  queryKey: QueryKey | null,
  { applyEvery }: { applyEvery: number },
): void {
  const latest = useRef(queryKey);
  useEffect(() => {
    latest.current = queryKey;
  });
  const following = queryKey !== null;
  useEffect(() => {
    if (!following) return;
    const pending = new Map<number, DeviceRecord>();
    let sinceReload: DeviceRecord[] | null = null;
    // Before the list's first answer there is nothing to change: that answer is read after them.
    const put = (changed: readonly DeviceRecord[]) => {
      if (latest.current)
        client.setQueryData<DeviceRecord[]>(
          latest.current,
          (records) => records && applyRecordChanges(records, changed),
        );
    };
    const apply = throttle(() => {
      const changed = [...pending.values()];
      pending.clear();
      sinceReload?.push(...changed);
      put(changed);
    }, applyEvery);
    const reload = throttle(() => {
      if (!latest.current) return;
      const applied: DeviceRecord[] = (sinceReload = []);
      void client.refetchQueries({ queryKey: latest.current, exact: true }).then(() => {
        if (sinceReload === applied) sinceReload = null;
        if (applied.length) put(applied);
      });
    }, STATUS_RELOAD_MS);
    const unsubscribe = subscribeLiveEvents('records', (message) => {
      if (message.type === 'reset' || message.data.action === 'uploaded') return reload();
      for (const record of message.data.records) pending.set(record.id, record);
      apply();
    });
    return () => {
      unsubscribe();
      apply.cancel();
      reload.cancel();
    };
  }, [client, applyEvery, following]);
}
