// One open event stream (docs/events.md#the-stream): the text/event-stream framing, which events
// it has sent (so none is sent twice between the replay and the live events), and its socket's
// backpressure.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { StoredEvent } from './repository';

/**
 * A live stream whose socket still holds more than this unsent when more events come is dropped
 * (its client does not read): the client reconnects with its last id and replays the rest.
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** At shutdown, how long a client has to take the retry hint before its socket is closed anyway. */
const SHUTDOWN_GRACE_MS = 1000;

const frame = (event: StoredEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${event.data}\n\n`;

export class EventStream {
  /** The newest id sent or passed over: no event up to it is sent (again). */
  private lastId = 0;
  /** Live events received while the replay is read; null once live. */
  private held: StoredEvent[] | null = [];
  private ended = false;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly response: ServerResponse,
    /** Whether the viewer may see the event. */
    private readonly visible: (event: StoredEvent) => boolean,
  ) {
    response.on('close', () => this.finish());
  }

  get open(): boolean {
    return !this.ended;
  }

  /** Runs `cleanup` when the stream ends, however it ends. */
  onEnd(cleanup: () => void): void {
    if (this.ended) cleanup();
    else this.cleanups.push(cleanup);
  }

  /** The hub's listener: events read from the table, in id order. */
  readonly live = (events: readonly StoredEvent[]): void => {
    if (this.held) this.held.push(...events);
    else this.send(events, true);
  };

  /** The client has seen every event up to `id`. */
  seenThrough(id: number): void {
    this.lastId = Math.max(this.lastId, id);
  }

  /** A page of the replay; resolves once the socket takes more (a replay waits for a slow client, a live stream drops it). */
  async replay(events: readonly StoredEvent[]): Promise<void> {
    this.send(events, false);
    if (this.ended || !this.response.writableNeedDrain) return;
    await Promise.race([once(this.response, 'drain'), once(this.response, 'close')]);
  }

  /** The client must reload what it shows, then go on after `newestId`. */
  reset(newestId: number): void {
    this.write(`id: ${newestId}\nevent: reset\ndata: {}\n\n`, false);
    this.seenThrough(newestId);
  }

  /** Ends the replay: the live events held meanwhile are sent, but those already sent. */
  goLive(): void {
    const held = this.held ?? [];
    this.held = null;
    this.send(held, true);
  }

  /** Writes text as it is (the stream's first lines, comments). */
  write(text: string, dropIfBehind = true): void {
    if (this.ended) return;
    if (dropIfBehind && this.response.writableLength > MAX_BUFFERED_BYTES) this.response.destroy();
    else this.response.write(text);
  }

  end(): void {
    if (this.ended) return;
    this.response.end();
    this.finish();
  }

  /** The server stops: a retry hint, so the client reconnects (to another instance) soon, then the end. */
  shutdown(): void {
    if (this.ended) return;
    const response = this.response;
    response.end('retry: 1000\n\n');
    // A client that does not read must not hold the server's close.
    const grace = setTimeout(() => response.destroy(), SHUTDOWN_GRACE_MS);
    response.once('close', () => clearTimeout(grace));
    this.finish();
  }

  private send(events: readonly StoredEvent[], dropIfBehind: boolean): void {
    let text = '';
    for (const event of events) {
      if (event.id <= this.lastId) continue;
      this.lastId = event.id;
      if (this.visible(event)) text += frame(event);
    }
    if (text) this.write(text, dropIfBehind);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }
}
