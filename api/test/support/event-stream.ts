// A client of api/events/ for the tests: opens the stream with a client's cookies (and a
// Last-Event-ID), parses what arrives into messages, and lets a test wait for a message or the end.
import http from 'node:http';
import type { Client } from './build';

/** One block of the stream, up to its blank line. */
export interface Message {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comments: string[];
}

export interface StreamEvent {
  id: number;
  event: string;
  data: any;
}

export class EventStreamReader {
  readonly messages: Message[] = [];
  /** Resolves when the server ends the stream (or its connection closes). */
  readonly ended: Promise<void>;
  private readonly waiters = new Set<() => void>();
  private rest = '';
  private done = false;

  private constructor(
    readonly status: number,
    readonly headers: http.IncomingHttpHeaders,
    private readonly response: http.IncomingMessage,
    private readonly request: http.ClientRequest,
  ) {
    response.setEncoding('utf8');
    response.on('data', (text: string) => this.receive(text));
    this.ended = new Promise((resolve) => {
      const finish = () => {
        this.done = true;
        this.notify();
        resolve();
      };
      response.once('end', finish);
      response.once('close', finish);
      // A stream the server drops ends with a reset connection.
      response.on('error', finish);
    });
  }

  /** Opens api/events/ of `baseUrl` with `client`'s cookies. */
  static open(
    baseUrl: string,
    client: Client | null,
    {
      lastEventId,
      query = '',
      headers: extra = {},
    }: { lastEventId?: string | number; query?: string; headers?: Record<string, string> } = {},
  ): Promise<EventStreamReader> {
    const cookie = client ? client.cookieHeader() : '';
    const headers: Record<string, string> = { accept: 'text/event-stream', ...extra };
    if (cookie) headers.cookie = cookie;
    if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
    return new Promise((resolve, reject) => {
      const request = http.get(`${baseUrl}/veritas/api/events/${query}`, { headers, agent: false }, (response) =>
        resolve(new EventStreamReader(response.statusCode!, response.headers, response, request)),
      );
      request.on('error', reject);
    });
  }

  /** The events received so far (messages with an event name), data parsed. */
  get events(): StreamEvent[] {
    return this.messages
      .filter((m) => m.event !== undefined)
      .map((m) => ({ id: Number(m.id), event: m.event!, data: JSON.parse(m.data ?? 'null') }));
  }

  /** Waits for a message `accept`s (among those received so far too); fails if the stream ends first. */
  async waitFor(accept: (message: Message) => boolean, what = 'the message'): Promise<Message> {
    for (;;) {
      const found = this.messages.find(accept);
      if (found) return found;
      if (this.done) throw new Error(`The stream ended before ${what}; received ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  /** Waits for the event with this id. */
  waitForId(id: number): Promise<Message> {
    return this.waitFor((m) => m.id === String(id) && m.event !== undefined, `event ${id}`);
  }

  /** Waits for an event of this type whose data `accept`s. */
  async waitForEvent(event: string, accept: (data: any) => boolean = () => true): Promise<StreamEvent> {
    const message = await this.waitFor(
      (m) => m.event === event && accept(JSON.parse(m.data ?? 'null')),
      `a ${event} event`,
    );
    return { id: Number(message.id), event, data: JSON.parse(message.data ?? 'null') };
  }

  close(): void {
    this.request.destroy();
    this.response.destroy();
  }

  private receive(text: string) {
    const blocks = (this.rest + text).split('\n\n');
    this.rest = blocks.pop()!;
    for (const block of blocks) {
      const message: Message = { comments: [] };
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) message.comments.push(line.slice(1).trim());
        else {
          const colon = line.indexOf(':');
          const field = line.slice(0, colon) as 'id' | 'event' | 'data' | 'retry';
          message[field] = line.slice(colon + 1).replace(/^ /, '');
        }
      }
      this.messages.push(message);
    }
    this.notify();
  }

  private notify() {
    for (const wake of [...this.waiters]) wake();
    this.waiters.clear();
  }
}
