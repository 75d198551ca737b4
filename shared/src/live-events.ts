// The live event stream (server feature 'live-events', docs/events.md): one EventSource per console
// tab, opened while the session is signed in with the feature, and the pages' subscriptions to it.
// A server that does not announce the feature gets no stream at all: the console behaves as before.
import { useEffect, useRef } from 'react';
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { http } from './http';
import { useSession } from './session';
import type { DeviceRecord, LiveEventData, LiveEventType } from './types';
import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** What the live indicator shows: receiving, trying to get the stream back, or closed on purpose (tab hidden, offline). */
export type LiveStatus = 'connected' | 'reconnecting' | 'paused';

/**
 * What a subscriber is given: an event of its type, or a reset: changes may have been missed (the
 * server's replay window did not reach back far enough), so the page reloads what it shows.
 */
export type LiveMessage<T extends LiveEventType> = { type: T; data: LiveEventData[T] } | { type: 'reset' };

type Handler = (message: LiveMessage<LiveEventType>) => void;

const EVENT_TYPES: readonly LiveEventType[] = ['records', 'users', 'groups'];
const EVENTS_PATH = 'api/events/';
/** Delays before opening a stream again after it closed for good: 1 s, 2 s, 5 s, then 10 s. */
export const RECONNECT_DELAYS: readonly number[] = [1000, 2000, 5000, 10_000];
/** A tab hidden this long closes its stream, to spare the server; it resumes when shown again. */
export const PAUSE_WHEN_HIDDEN_MS = 30_000;
// EventSource.CLOSED, read as a number: the class may be missing (no stream is opened then).
const CLOSED = 2;

interface LiveState {
  /** null while no stream is in use (signed out, or the server lacks 'live-events'). */
  status: LiveStatus | null;
}

interface Registry {
  store: UseBoundStore<StoreApi<LiveState>>;
  handlers: Map<LiveEventType, Set<Handler>>;
  /** The running connection and how many callers started it. */
  connection: { stop(): void; users: number } | null;
}

// One stream per tab even if a second copy of @veritas/shared loads (as session.ts does).
const registryKey = Symbol.for('veritas.liveEvents');
const global = globalThis as typeof globalThis & { [registryKey]?: Registry };
const registry: Registry = (global[registryKey] ??= {
  store: create<LiveState>()(() => ({ status: null })),
  handlers: new Map(),
  connection: null,
});

const setStatus = (status: LiveStatus | null) => {
  if (registry.store.getState().status !== status) registry.store.setState({ status });
};

/** The stream's status for the live indicator; null while no stream is in use. */
export function useLiveStatus(): LiveStatus | null {
  return registry.store((s) => s.status);
}

/** Calls `handler` with each event of `type` and with each reset; answers the unsubscribe. */
export function subscribeLiveEvents<T extends LiveEventType>(
  type: T,
  handler: (message: LiveMessage<T>) => void,
): () => void {
  let set = registry.handlers.get(type);
  if (!set) registry.handlers.set(type, (set = new Set()));
  const entry = handler as Handler;
  set.add(entry);
  return () => set.delete(entry);
}

/** subscribeLiveEvents for a component: follows its latest `handler` while it is mounted. */
export function useLiveEvents<T extends LiveEventType>(type: T, handler: (message: LiveMessage<T>) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => subscribeLiveEvents(type, (message) => latest.current(message)), [type]);
}

function deliver(type: LiveEventType, message: LiveMessage<LiveEventType>) {
  for (const handler of [...(registry.handlers.get(type) ?? [])]) {
    try {
      handler(message);
    } catch (error) {
      console.error(`A live ${type} subscriber failed`, error);
    }
  }
}

function deliverReset() {
  for (const type of EVENT_TYPES) deliver(type, { type: 'reset' });
}

/**
 * Follows the session: a stream is open while it is signed in and its features include
 * 'live-events', closed otherwise. Answers the function that stops following (the stream closes
 * when every caller has stopped). The shell calls it once for the signed-in layout.
 */
export function startLiveEvents(): () => void {
  const connection = (registry.connection ??= { ...connect(), users: 0 });
  connection.users += 1;
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    connection.users -= 1;
    if (connection.users === 0 && registry.connection === connection) {
      registry.connection = null;
      connection.stop();
    }
  };
}

/**
 * The stream's life. The browser's EventSource reconnects by itself after a network error,
 * sending Last-Event-ID; it gives up (readyState CLOSED) when the server refuses it, e.g. 401
 * once the access cookie has expired. Then the session is refreshed through the http client (any
 * signed-in call renews it, or signs the user out as every other call would) and a new stream asks
 * for the events after the last one seen (?last_event_id=), after 1, 2, 5, then 10 s.
 */
function connect(): { stop(): void } {
  let source: EventSource | null = null;
  /** The id of the last event received; the server replays what follows it. */
  let lastId: string | null = null;
  /** The stream was interrupted since it last opened: events may have been missed. */
  let interrupted = false;
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let hiddenSince: ReturnType<typeof setTimeout> | null = null;
  let hiddenLong = false;
  let offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  /** Bumped whenever the stream is dropped, so a reconnection under way knows it is no longer wanted. */
  let generation = 0;

  const wanted = () => {
    const { isAuthenticated, features } = useSession.getState();
    return isAuthenticated && features.includes('live-events') && typeof EventSource === 'function';
  };

  function drop() {
    generation += 1;
    if (retry) clearTimeout(retry);
    retry = null;
    if (source) {
      source.close();
      source = null;
      interrupted = true;
    }
  }

  function open() {
    const url = `${http.defaults.baseURL ?? ''}/${EVENTS_PATH}${lastId === null ? '' : `?last_event_id=${encodeURIComponent(lastId)}`}`;
    const stream = new EventSource(url);
    source = stream;
    const current = () => source === stream;
    stream.addEventListener('open', () => {
      if (!current()) return;
      failures = 0;
      setStatus('connected');
      // Without an id to resume from, the server starts with live events: what happened during
      // the interruption is unknown, so the pages reload (with an id, the replay covers it).
      if (interrupted && lastId === null) deliverReset();
      interrupted = false;
    });
    stream.addEventListener('error', () => {
      if (!current()) return;
      interrupted = true;
      setStatus('reconnecting');
      if (stream.readyState === CLOSED) {
        source = null;
        scheduleReopen();
      }
    });
    for (const type of [...EVENT_TYPES, 'reset'] as const)
      stream.addEventListener(type, (event) => {
        if (!current()) return;
        const { data, lastEventId } = event as MessageEvent<string>;
        if (lastEventId) lastId = lastEventId;
        if (type === 'reset') return deliverReset();
        try {
          deliver(type, { type, data: JSON.parse(data) as LiveEventData[typeof type] });
        } catch (error) {
          console.error(`A live ${type} event could not be read`, error);
        }
      });
  }

  function scheduleReopen() {
    const delay = RECONNECT_DELAYS[Math.min(failures, RECONNECT_DELAYS.length - 1)]!;
    failures += 1;
    const scheduled = generation;
    retry = setTimeout(() => {
      retry = null;
      // A 401 here is answered by the client's refresh-and-replay; a failed refresh signs the user
      // out, which closes everything. Any other failure: the new stream is tried all the same.
      void http.get('user/is_LoggedIn/').then(
        () => reopen(scheduled),
        () => reopen(scheduled),
      );
    }, delay);
  }

  function reopen(scheduled: number) {
    if (scheduled === generation && !source) update();
  }

  /** Brings the stream in line with the session, the tab's visibility and the network. */
  function update() {
    if (!wanted()) {
      drop();
      lastId = null;
      interrupted = false;
      failures = 0;
      setStatus(null);
    } else if (hiddenLong || offline) {
      drop();
      failures = 0;
      setStatus('paused');
    } else if (!source && !retry) {
      // A stream resumed after a pause or a closure shows 'reconnecting' until it opens.
      if (registry.store.getState().status !== null) setStatus('reconnecting');
      open();
    }
  }

  function onVisibility() {
    if (document.hidden) {
      hiddenSince ??= setTimeout(() => {
        hiddenLong = true;
        update();
      }, PAUSE_WHEN_HIDDEN_MS);
      return;
    }
    if (hiddenSince) clearTimeout(hiddenSince);
    hiddenSince = null;
    hiddenLong = false;
    update();
  }

  function onNetwork() {
    offline = navigator.onLine === false;
    update();
  }

  const unsubscribe = useSession.subscribe((state, previous) => {
    if (state.isAuthenticated !== previous.isAuthenticated || state.features !== previous.features) update();
  });
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('online', onNetwork);
  window.addEventListener('offline', onNetwork);
  if (document.hidden) onVisibility();
  update();

  return {
    stop() {
      unsubscribe();
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('online', onNetwork);
      window.removeEventListener('offline', onNetwork);
      if (hiddenSince) clearTimeout(hiddenSince);
      drop();
      setStatus(null);
    },
  };
}

/** A function of `throttle`: call it as often as needed; `cancel` drops a run still pending. */
export interface Throttled {
  (): void;
  cancel(): void;
}

/**
 * Runs `run` at most once per `interval` ms, however often it is called: at once when the last run
 * is older than that (unless `leading` is false), else once at the end of the interval, so the last
 * call is always followed by a run. With `leading: false` it gathers a burst: the first call of a
 * burst runs `interval` ms later. Hand-written (a dozen lines) rather than adding lodash to the
 * shared singleton for one function.
 */
export function throttle(run: () => void, interval: number, { leading = true }: { leading?: boolean } = {}): Throttled {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    last = Date.now();
    run();
  };
  const throttled = () => {
    if (timer) return;
    const now = Date.now();
    const at = Math.max(leading ? now : now + interval, last + interval);
    if (at <= now) fire();
    else timer = setTimeout(fire, at - now);
  };
  throttled.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return throttled;
}

/**
 * The records with the changed ones put in: each replaces the record of its id, or is added. The
 * order is kept (the pages sort what they show).
 */
export function applyRecordChanges(records: readonly DeviceRecord[], changed: readonly DeviceRecord[]): DeviceRecord[] {
  const byId = new Map(changed.map((record) => [record.id, record]));
  const next = records.map((record) => {
    const replacement = byId.get(record.id);
    if (!replacement) return record;
    byId.delete(record.id);
    return replacement;
  });
  next.push(...byId.values());
  return next;
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
