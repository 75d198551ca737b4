// Test support: jsdom has no EventSource. FakeEventSource stands in for it, and the test plays the
// server: opens a stream, sends events, breaks it the way a browser reports it.
import { act } from '@testing-library/react';
import { startLiveEvents } from '../live-events';
import { useSession } from '../session';

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;

export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = CONNECTING;
  static readonly OPEN = OPEN;
  static readonly CLOSED = CLOSED;
  /** Every stream constructed since install, oldest first. */
  static instances: FakeEventSource[] = [];

  readonly url: string;
  readyState = CONNECTING;

  constructor(url: string | URL) {
    super();
    this.url = String(url);
    FakeEventSource.instances.push(this);
  }

  /** The server answered: the stream is open. */
  open(): void {
    this.readyState = OPEN;
    this.dispatchEvent(new Event('open'));
  }

  /** The server sends an event of `type` with `data` (as JSON) and `id`. */
  emit(type: string, data: unknown, id?: number | string): void {
    this.dispatchEvent(
      new MessageEvent(type, { data: JSON.stringify(data), lastEventId: id === undefined ? '' : String(id) }),
    );
  }

  /**
   * The stream broke: by default the browser reconnects by itself (readyState CONNECTING);
   * `{closed: true}` is a browser that gave up (e.g. the server answered 401).
   */
  fail({ closed = false }: { closed?: boolean } = {}): void {
    this.readyState = closed ? CLOSED : CONNECTING;
    this.dispatchEvent(new Event('error'));
  }

  close(): void {
    this.readyState = CLOSED;
  }

  /** The query parameter last_event_id the stream was opened with, or null. */
  get resumesFrom(): string | null {
    return new URL(this.url, 'http://console.test').searchParams.get('last_event_id');
  }

  /** The newest stream constructed. */
  static get latest(): FakeEventSource | undefined {
    return FakeEventSource.instances[FakeEventSource.instances.length - 1];
  }
}

/** Puts FakeEventSource in place of the browser's EventSource; answers the function that removes it. */
export function installFakeEventSource(): () => void {
  const global = globalThis as { EventSource?: unknown };
  const before = global.EventSource;
  FakeEventSource.instances = [];
  global.EventSource = FakeEventSource;
  return () => {
    global.EventSource = before;
    FakeEventSource.instances = [];
  };
}

/**
 * For the tests of a file or a describe block: each runs with FakeEventSource in place and the
 * tab's live stream started (it opens once the session is signed in with 'live-events'); after
 * each, the stream stops, the session is signed out and the browser's EventSource is back.
 */
export function withFakeLiveStream(): void {
  let removeFake = () => {};
  let stopStream = () => {};
  beforeEach(() => {
    removeFake = installFakeEventSource();
    stopStream = startLiveEvents();
  });
  afterEach(() => {
    act(() => {
      stopStream();
      useSession.getState().clearSession();
    });
    removeFake();
  });
}
