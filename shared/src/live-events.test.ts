// The live event stream of a console tab (docs/architecture.md#live-events).
import { act, renderHook } from '@testing-library/react';
import { setLoginRedirect } from './http';
import {
  applyRecordChanges,
  PAUSE_WHEN_HIDDEN_MS,
  RECONNECT_DELAYS,
  liveEventMark,
  startLiveEvents,
  subscribeLiveEvents,
  subscribeLiveEventsSince,
  throttle,
  useLiveEvents,
  useLiveStatus,
  type LiveMessage,
} from './live-events';
import { useSession } from './session';
import type { LiveEventType } from './types';
import { FakeEventSource, installFakeEventSource } from './testing/event-source';
import { mockApi, type MockApi } from './testing/mock-api';
import { makeRecord } from './testing/records';
import type { ServerFeature } from './types';

let api: MockApi;
let removeFake: () => void;
let stop: () => void;
let redirect: jest.Mock;

let shown: { current: ReturnType<typeof useLiveStatus> };
/** The status as a component using useLiveStatus sees it. */
const status = () => shown.current;
const streams = () => FakeEventSource.instances;
const latest = () => FakeEventSource.latest!;

function signIn(features: ServerFeature[] = ['live-events']) {
  act(() => useSession.getState().setSession({ user: 'asha', role: 'admin', hubCode: null, features }));
}

/** Everything a subscriber of `type` is given. */
function listen<T extends LiveEventType>(type: T) {
  const got: LiveMessage<T>[] = [];
  const unsubscribe = subscribeLiveEvents(type, (message) => got.push(message));
  return { got, unsubscribe };
}

function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event('visibilitychange'));
}

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

beforeEach(() => {
  jest.useFakeTimers();
  api = mockApi().on('GET user/is_LoggedIn/', [200, {}]);
  redirect = jest.fn();
  setLoginRedirect(redirect);
  removeFake = installFakeEventSource();
  stop = startLiveEvents();
  shown = renderHook(() => useLiveStatus()).result;
});

afterEach(() => {
  act(() => {
    stop();
    useSession.getState().clearSession();
  });
  removeFake();
  api.restore();
  jest.useRealTimers();
  setHidden(false);
  setOnline(true);
});

describe('when the stream is opened', () => {
  test('not for a server without the feature live-events (a spec-only server): no EventSource, no status', () => {
    signIn([]);
    signIn(['device-pages', 'dashboard-figures']);
    expect(streams()).toHaveLength(0);
    expect(status()).toBeNull();
  });

  test('not while signed out, even with the feature', () => {
    act(() => useSession.setState({ features: ['live-events'] }));
    expect(streams()).toHaveLength(0);
  });

  test('signed in with live-events: one stream of api/events/ under /veritas without a last id; connected once it opens', () => {
    signIn();
    expect(streams().map((s) => s.url)).toEqual(['/veritas/api/events/']);
    // Until it first opens, no indicator: nothing to tell yet.
    expect(status()).toBeNull();
    act(() => latest().open());
    expect(status()).toBe('connected');
    signIn();
    expect(streams()).toHaveLength(1);
  });

  test('signing out closes the stream and hides the status; a second start shares the one stream', () => {
    const stopAgain = startLiveEvents();
    signIn();
    act(() => latest().open());
    expect(streams()).toHaveLength(1);
    act(() => useSession.getState().clearSession());
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
    expect(status()).toBeNull();
    stopAgain();
    signIn();
    expect(streams()).toHaveLength(2);
  });

  test('stopping closes the stream', () => {
    signIn();
    act(() => latest().open());
    act(() => stop());
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
    expect(status()).toBeNull();
  });
});

describe('events to subscribers', () => {
  test('each event goes to the subscribers of its type, parsed; an unsubscribed handler gets nothing more', () => {
    signIn();
    act(() => latest().open());
    const records = listen('records');
    const users = listen('users');
    const record = makeRecord({ id: 7 });
    latest().emit('records', { action: 'verified', records: [record] }, 11);
    latest().emit('users', { action: 'created', username: 'ravi', role: 'executive' }, 12);
    expect(records.got).toEqual([{ type: 'records', data: { action: 'verified', records: [record] } }]);
    expect(users.got).toEqual([{ type: 'users', data: { action: 'created', username: 'ravi', role: 'executive' } }]);
    records.unsubscribe();
    latest().emit('records', { action: 'uploaded', count: 3, hubs: ['BLR01'] }, 13);
    expect(records.got).toHaveLength(1);
    users.unsubscribe();
  });

  test('a reset event goes to every subscriber of every type as a reset', () => {
    signIn();
    act(() => latest().open());
    const all = (['records', 'users', 'groups', 'remotes'] as const).map(listen);
    latest().emit('reset', {}, 40);
    expect(all.map((l) => l.got)).toEqual([
      [{ type: 'reset' }],
      [{ type: 'reset' }],
      [{ type: 'reset' }],
      [{ type: 'reset' }],
    ]);
    all.forEach((l) => l.unsubscribe());
  });

  test('subscribeLiveEventsSince: a subscriber from a mark hears at once, as one reset, of the events of its type since the mark; none since: nothing', () => {
    signIn();
    act(() => latest().open());
    const since = liveEventMark('cases');
    latest().emit('cases', { action: 'assigned', case: { id: 1 } }, 20);
    latest().emit('cases', { action: 'assigned', case: { id: 2 } }, 21);
    latest().emit('users', { action: 'created', username: 'ravi', role: 'executive' }, 22);
    const got: LiveMessage<'cases'>[] = [];
    const unsubscribe = subscribeLiveEventsSince('cases', since, (message) => got.push(message));
    expect(got).toEqual([{ type: 'reset' }]);
    const users: LiveMessage<'users'>[] = [];
    const unsubscribeUsers = subscribeLiveEventsSince('users', liveEventMark('users'), (message) =>
      users.push(message),
    );
    expect(users).toEqual([]);
    unsubscribe();
    unsubscribeUsers();
  });

  test('useLiveEvents hears of an event that came between the first render and its subscription, as a reset', () => {
    signIn();
    act(() => latest().open());
    const got: LiveMessage<'audit'>[] = [];
    let told = false;
    renderHook(() => {
      useLiveEvents('audit', (message) => got.push(message));
      // During the render, before the effects: the window a subscription made in an effect leaves.
      if (!told) {
        told = true;
        latest().emit('audit', { id: 9 }, 30);
      }
    });
    expect(got).toEqual([{ type: 'reset' }]);
  });

  test('a remotes event (a rollout changed) reaches its subscribers with the remote it names', () => {
    signIn();
    act(() => latest().open());
    const remotes = listen('remotes');
    latest().emit('remotes', { remote: 'devices' }, 41);
    expect(remotes.got).toEqual([{ type: 'remotes', data: { remote: 'devices' } }]);
    remotes.unsubscribe();
  });

  test('a failing subscriber is logged and does not keep the others from the event', () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    signIn();
    act(() => latest().open());
    const failing = subscribeLiveEvents('groups', () => {
      throw new Error('boom');
    });
    const groups = listen('groups');
    latest().emit('groups', { action: 'created', name: 'HYD', code: 'HYD', organization: 'hub' }, 3);
    expect(groups.got).toHaveLength(1);
    expect(log).toHaveBeenCalledWith('A live groups subscriber failed', expect.any(Error));
    failing();
    groups.unsubscribe();
    log.mockRestore();
  });
});

describe('reconnecting', () => {
  test("a break the browser recovers from itself: 'reconnecting', then 'connected' on the same EventSource", () => {
    signIn();
    act(() => latest().open());
    act(() => latest().fail());
    expect(status()).toBe('reconnecting');
    act(() => latest().open());
    expect(status()).toBe('connected');
    expect(streams()).toHaveLength(1);
  });

  test('closed for good (e.g. 401 once the access cookie expired): the session is refreshed, then a new stream asks for the events after the last id seen', async () => {
    let refreshed = false;
    api
      .on('GET user/is_LoggedIn/', () => (refreshed ? [200, {}] : [401, { detail: 'expired' }]))
      .on('POST user/refresh/', () => ((refreshed = true), [200, {}]));
    signIn();
    act(() => latest().open());
    latest().emit('records', { action: 'uploaded', count: 1, hubs: [] }, 41);
    latest().emit('records', { action: 'uploaded', count: 1, hubs: [] }, 42);
    act(() => latest().fail({ closed: true }));
    expect(status()).toBe('reconnecting');

    await act(() => jest.advanceTimersByTimeAsync(RECONNECT_DELAYS[0]! - 1));
    expect(streams()).toHaveLength(1);
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET user/is_LoggedIn/',
      'POST user/refresh/',
      'GET user/is_LoggedIn/',
    ]);
    expect(streams()).toHaveLength(2);
    expect(latest().url).toBe('/veritas/api/events/?last_event_id=42');
    act(() => latest().open());
    expect(status()).toBe('connected');
  });

  test('repeated closures wait 1 s, 2 s, 5 s, then 10 s each time; an opened stream starts again at 1 s', async () => {
    signIn();
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      act(() => latest().fail({ closed: true }));
      const before = streams().length;
      let waited = 0;
      while (streams().length === before) {
        await act(() => jest.advanceTimersByTimeAsync(500));
        waited += 500;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1000, 2000, 5000, 10_000, 10_000]);
    act(() => latest().open());
    act(() => latest().fail({ closed: true }));
    await act(() => jest.advanceTimersByTimeAsync(1000));
    expect(streams()).toHaveLength(7);
  });

  test('a refresh that fails signs the user out: no new stream, the status is gone', async () => {
    api.on('GET user/is_LoggedIn/', [401, { detail: 'expired' }]).on('POST user/refresh/', [401, { detail: 'over' }]);
    signIn();
    act(() => latest().open());
    act(() => latest().fail({ closed: true }));
    await act(() => jest.advanceTimersByTimeAsync(60_000));
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(redirect).toHaveBeenCalled();
    expect(streams()).toHaveLength(1);
    expect(status()).toBeNull();
  });

  test('a stream that resumes without any id seen (nothing to replay from) tells every subscriber to reset', async () => {
    signIn();
    act(() => latest().open());
    const records = listen('records');
    act(() => latest().fail());
    act(() => latest().open());
    expect(records.got).toEqual([{ type: 'reset' }]);
    latest().emit('records', { action: 'uploaded', count: 1, hubs: [] }, 5);
    act(() => latest().fail());
    act(() => latest().open());
    // With an id the browser resumed from it (Last-Event-ID): the server replays, no reset.
    expect(records.got).toHaveLength(2);
    records.unsubscribe();
  });
});

describe("the page document's mark (docs/events.md#the-first-stream)", () => {
  /**
   * A page document naming `mark`, and its first stream started by a fresh copy of the package's
   * modules, as on a page load; answers the meta element to remove and that copy's sign-in mark.
   */
  function loadDocumentMarked(mark: string) {
    act(() => stop());
    const meta = document.createElement('meta');
    meta.name = 'veritas-last-event-id';
    meta.content = mark;
    document.head.append(meta);
    let markSignIn!: (value: unknown) => void;
    jest.isolateModules(() => {
      /* eslint-disable @typescript-eslint/no-require-imports */
      stop = (require('./live-events') as typeof import('./live-events')).startLiveEvents();
      markSignIn = (require('./live/start-mark') as typeof import('./live/start-mark')).markSignIn;
      /* eslint-enable @typescript-eslint/no-require-imports */
    });
    return { meta, markSignIn };
  }

  test("the tab's first stream resumes after the event id the page document names, once the sign-in check passes; after a sign-out a stream starts afresh", () => {
    const { meta } = loadDocumentMarked('42');
    // Before the sign-in check answers, no stream: the mark waits for it.
    expect(streams()).toHaveLength(0);
    signIn();
    expect(latest().url).toBe('/veritas/api/events/?last_event_id=42');
    const records = listen('records');
    act(() => latest().open());
    // The replay covers what came since the mark: no reset.
    expect(records.got).toEqual([]);
    act(() => useSession.getState().clearSession());
    signIn();
    expect(latest().url).toBe('/veritas/api/events/');
    records.unsubscribe();
    meta.remove();
  });

  test("a sign-in's mark replaces the document's: the stream of the session it opens resumes after it", () => {
    const { meta, markSignIn } = loadDocumentMarked('42');
    markSignIn('77');
    signIn();
    expect(latest().url).toBe('/veritas/api/events/?last_event_id=77');
    meta.remove();
  });

  test('a mark that is no event id is not sent', () => {
    const { meta } = loadDocumentMarked('42&x=1');
    signIn();
    expect(latest().url).toBe('/veritas/api/events/');
    meta.remove();
  });
});

describe('paused', () => {
  test('a tab hidden for 30 s closes its stream (paused); shown again, a new stream resumes from the last id', () => {
    signIn();
    act(() => latest().open());
    latest().emit('groups', { action: 'created', name: 'X', code: 'X', organization: 'RC' }, 9);
    act(() => setHidden(true));
    act(() => jest.advanceTimersByTime(PAUSE_WHEN_HIDDEN_MS - 1));
    expect(status()).toBe('connected');
    act(() => jest.advanceTimersByTime(1));
    expect(status()).toBe('paused');
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);

    act(() => setHidden(false));
    expect(streams()).toHaveLength(2);
    expect(latest().url).toBe('/veritas/api/events/?last_event_id=9');
    expect(status()).toBe('reconnecting');
    act(() => latest().open());
    expect(status()).toBe('connected');
  });

  test('a tab hidden for less than 30 s keeps its stream', () => {
    signIn();
    act(() => latest().open());
    act(() => setHidden(true));
    act(() => jest.advanceTimersByTime(PAUSE_WHEN_HIDDEN_MS - 1000));
    act(() => setHidden(false));
    act(() => jest.advanceTimersByTime(PAUSE_WHEN_HIDDEN_MS));
    expect(status()).toBe('connected');
    expect(streams()).toHaveLength(1);
  });

  test('offline: paused at once, the stream closed; online again: resumed from the last id', () => {
    signIn();
    act(() => latest().open());
    latest().emit('users', { action: 'activated', username: 'ravi', role: 'executive' }, 77);
    act(() => setOnline(false));
    expect(status()).toBe('paused');
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
    act(() => setOnline(true));
    expect(latest().url).toBe('/veritas/api/events/?last_event_id=77');
    act(() => latest().open());
    expect(status()).toBe('connected');
  });

  test('a reconnection waiting when the tab is paused is dropped; the stream opens once shown again', async () => {
    signIn();
    act(() => latest().open());
    act(() => latest().fail({ closed: true }));
    act(() => setOnline(false));
    await act(() => jest.advanceTimersByTimeAsync(20_000));
    expect(streams()).toHaveLength(1);
    act(() => setOnline(true));
    expect(streams()).toHaveLength(2);
  });
});

describe('throttle', () => {
  test('runs at once, then at most once per interval, with one run after the last call', () => {
    const run = jest.fn();
    const throttled = throttle(run, 1000);
    throttled();
    expect(run).toHaveBeenCalledTimes(1);
    throttled();
    throttled();
    jest.advanceTimersByTime(999);
    expect(run).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(2);
    throttled();
    expect(run).toHaveBeenCalledTimes(3);
  });

  test('without leading, a burst is gathered into one run at the end of the interval; cancel drops it', () => {
    const run = jest.fn();
    const gathered = throttle(run, 200, { leading: false });
    gathered();
    jest.advanceTimersByTime(150);
    gathered();
    expect(run).not.toHaveBeenCalled();
    jest.advanceTimersByTime(50);
    expect(run).toHaveBeenCalledTimes(1);
    gathered();
    gathered.cancel();
    jest.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

test('applyRecordChanges replaces records by id and adds the new ones, keeping the order', () => {
  const [a, b, c] = [1, 2, 3].map((id) => makeRecord({ id }));
  const b2 = makeRecord({ id: 2, is_submit: true });
  const d = makeRecord({ id: 4 });
  expect(applyRecordChanges([a!, b!, c!], [d, b2])).toEqual([a, b2, c, d]);
});

test('a second copy of the module uses the same stream and subscribers (global Symbol.for key)', () => {
  let copy: typeof import('./live-events') | undefined;
  jest.isolateModules(() => {
    // A second evaluation of the module needs require inside isolateModules.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    copy = require('./live-events') as typeof import('./live-events');
  });
  signIn();
  act(() => latest().open());
  const got: unknown[] = [];
  const unsubscribe = copy!.subscribeLiveEvents('records', (message) => got.push(message));
  latest().emit('records', { action: 'uploaded', count: 2, hubs: [] }, 1);
  expect(got).toHaveLength(1);
  const stopCopy = copy!.startLiveEvents();
  expect(streams()).toHaveLength(1);
  stopCopy();
  unsubscribe();
});
