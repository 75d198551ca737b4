// The live event stream (server feature 'live-events', docs/events.md): one EventSource per console
// tab, opened while the session is signed in with the feature, and the pages' subscriptions to it.
// A server that does not announce the feature gets no stream at all.
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { http } from '../http';
import { useSession } from '../session';
import type { LiveEventData, LiveEventType } from '../types';
import { takeStartMark } from './start-mark';

/** What the live indicator shows: receiving, trying to get the stream back, or closed on purpose (tab hidden, offline). */
export type LiveStatus = 'connected' | 'reconnecting' | 'paused';

/**
 * What a subscriber is given: an event of its type, or a reset: changes may have been missed (the
 * server's replay window did not reach back far enough), so the page reloads what it shows.
 */
export type LiveMessage<T extends LiveEventType> = { type: T; data: LiveEventData[T] } | { type: 'reset' };

type Handler = (message: LiveMessage<LiveEventType>) => void;

const EVENT_TYPES: readonly LiveEventType[] = ['records', 'users', 'groups', 'remotes', 'audit', 'cases'];
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
  /** How many messages (events and resets) each type has been given in this tab: see liveEventMark. */
  delivered?: Map<LiveEventType, number>;
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

/** The stream's status, for useLiveStatus. */
export const liveStatusStore = registry.store;

const setStatus = (status: LiveStatus | null) => {
  if (registry.store.getState().status !== status) registry.store.setState({ status });
};

// A copy of this module older than the count shares a registry without it.
const delivered = (registry.delivered ??= new Map());

/**
 * Where the messages of `type` stand in this tab: taken when a component starts loading what it
 * shows (in its render) and given to subscribeLiveEventsSince from its effect, it tells the
 * subscriber of a change that came in between, which it would otherwise never hear of.
 */
export function liveEventMark(type: LiveEventType): number {
  return delivered.get(type) ?? 0;
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

/**
 * subscribeLiveEvents from the liveEventMark `since`: messages of `type` delivered since then are
 * told at once, as one reset, since what was loaded before the subscription may be older than they are.
 */
export function subscribeLiveEventsSince<T extends LiveEventType>(
  type: T,
  since: number,
  handler: (message: LiveMessage<T>) => void,
): () => void {
  const unsubscribe = subscribeLiveEvents(type, handler);
  if (liveEventMark(type) !== since) handler({ type: 'reset' });
  return unsubscribe;
}

function deliver(type: LiveEventType, message: LiveMessage<LiveEventType>) {
  delivered.set(type, liveEventMark(type) + 1);
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
  const connection = (registry.connection ??= { ...followSession(new LiveConnection()), users: 0 });
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

/** Whether a stream is wanted: signed in, with 'live-events', in a browser that has EventSource. */
function wanted(): boolean {
  const { isAuthenticated, features } = useSession.getState();
  return isAuthenticated && features.includes('live-events') && typeof EventSource === 'function';
}

/**
 * The stream's life. The browser's EventSource reconnects by itself after a network error,
 * sending Last-Event-ID; it gives up (readyState CLOSED) when the server refuses it, e.g. 401
 * once the access cookie has expired. Then the session is refreshed through the http client (any
 * signed-in call renews it, or signs the user out as every other call would) and a new stream asks
 * for the events after the last one seen (?last_event_id=), after 1, 2, 5, then 10 s.
 */
class LiveConnection {
  private source: EventSource | null = null;
  /** The id of the last event received; the server replays what follows it. */
  private lastId: string | null = null;
  /** The stream was interrupted since it last opened: events may have been missed. */
  private interrupted = false;
  private failures = 0;
  private retry: ReturnType<typeof setTimeout> | null = null;
  /** Bumped whenever the stream is dropped, so a reconnection under way knows it is no longer wanted. */
  private generation = 0;
  /** Closed on purpose: the tab hidden for long, or the browser offline. */
  paused = false;

  /** Brings the stream in line with the session and `paused`. */
  update(): void {
    if (!wanted()) {
      this.drop();
      this.lastId = null;
      this.interrupted = false;
      this.failures = 0;
      setStatus(null);
    } else if (this.paused) {
      this.drop();
      this.failures = 0;
      setStatus('paused');
    } else if (!this.source && !this.retry) {
      // A stream resumed after a pause or a closure shows 'reconnecting' until it opens.
      if (registry.store.getState().status !== null) setStatus('reconnecting');
      this.open();
    }
  }

  stop(): void {
    this.drop();
    setStatus(null);
  }

  private drop() {
    this.generation += 1;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (this.source) {
      this.source.close();
      this.source = null;
      this.interrupted = true;
    }
  }

  private open() {
    // Before any event, where the session's first reads began (docs/events.md#the-first-stream):
    // they may answer before the stream opens, and a stream without an id starts after them.
    this.lastId ??= takeStartMark();
    const resume = this.lastId === null ? '' : `?last_event_id=${encodeURIComponent(this.lastId)}`;
    const stream = new EventSource(`${http.defaults.baseURL ?? ''}/${EVENTS_PATH}${resume}`);
    this.source = stream;
    const current = () => this.source === stream;
    stream.addEventListener('open', () => {
      if (current()) this.opened();
    });
    stream.addEventListener('error', () => {
      if (current()) this.failed(stream);
    });
    for (const type of [...EVENT_TYPES, 'reset'] as const)
      stream.addEventListener(type, (event) => {
        if (current()) this.received(type, event as MessageEvent<string>);
      });
  }

  private opened() {
    this.failures = 0;
    setStatus('connected');
    // Without an id to resume from, the server starts with live events: what happened during
    // the interruption is unknown, so the pages reload (with an id, the replay covers it).
    if (this.interrupted && this.lastId === null) deliverReset();
    this.interrupted = false;
  }

  private failed(stream: EventSource) {
    this.interrupted = true;
    setStatus('reconnecting');
    if (stream.readyState !== CLOSED) return;
    this.source = null;
    this.scheduleReopen();
  }

  private received(type: LiveEventType | 'reset', { data, lastEventId }: MessageEvent<string>) {
    if (lastEventId) this.lastId = lastEventId;
    if (type === 'reset') return deliverReset();
    try {
      deliver(type, { type, data: JSON.parse(data) as LiveEventData[typeof type] });
    } catch (error) {
      console.error(`A live ${type} event could not be read`, error);
    }
  }

  private scheduleReopen() {
    const delay = RECONNECT_DELAYS[Math.min(this.failures, RECONNECT_DELAYS.length - 1)]!;
    this.failures += 1;
    const scheduled = this.generation;
    const reopen = () => {
      if (scheduled === this.generation && !this.source) this.update();
    };
    this.retry = setTimeout(() => {
      this.retry = null;
      // A 401 here is answered by the client's refresh-and-replay; a failed refresh signs the user
      // out, which closes everything. Any other failure: the new stream is tried all the same.
      void http.get('user/is_LoggedIn/').then(reopen, reopen);
    }, delay);
  }
}

/**
 * Keeps `connection` in line with the session, the tab's visibility and the network: a tab hidden
 * for PAUSE_WHEN_HIDDEN_MS, or a browser offline, pauses it. Answers the function that stops it.
 */
function followSession(connection: LiveConnection): { stop(): void } {
  let hiddenSince: ReturnType<typeof setTimeout> | null = null;
  let hiddenLong = false;
  let offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  const update = () => {
    connection.paused = hiddenLong || offline;
    connection.update();
  };

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
      connection.stop();
    },
  };
}
