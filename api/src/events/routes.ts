// api/events/ (server feature 'live-events', docs/events.md): the stream of changes a signed-in
// console user may see, as server-sent events, resumed after the last event the client saw.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OutgoingHttpHeaders } from 'node:http';
import { EventsQuery, LiveEventStream } from '@veritas/shared/domain';
import { ACCESS_COOKIE } from '../auth/cookies';
import { authenticate } from '../auth/sessions';
import type { EventHub } from './hub';
import { eventsFrom, newestEventId } from './repository';
import { EventStream } from './stream';

/** A comment this often keeps proxies from closing an idle stream; the session is checked then too. */
const PING_MS = 15_000;
/** Events replayed per statement. */
const REPLAY_PAGE = 1000;

/**
 * The id the client saw last: the header, which the browser's EventSource sends on its own
 * reconnects (the URL's query is the one the stream was first opened with), else the query.
 * undefined: none (live events only); null: not an id (the client reloads: reset).
 */
function lastSeenId(header: string | string[] | undefined, query: string | undefined): number | null | undefined {
  const text = [header, query]
    .find((value): value is string => typeof value === 'string' && value.trim() !== '')
    ?.trim();
  if (text === undefined) return undefined;
  return /^\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}

export const eventRoutes: FastifyPluginAsyncTypebox<{ hub: EventHub }> = async (app, { hub }) => {
  const { db } = app;
  const streams = new Set<EventStream>();
  let closing = false;

  // A stream never ends by itself, and the server's close waits for every request.
  app.addHook('preClose', async () => {
    closing = true;
    for (const stream of [...streams]) stream.shutdown();
  });

  /**
   * Sends the events after `seen` still kept, and answers whether it could: the table must still
   * hold the event `seen` (pruning deletes a prefix of ids, so then none after it is gone) or, at
   * the start, the one after it, or be empty when `seen` is 0; each page is one statement, so it
   * sees one state of the table.
   */
  async function replay(stream: EventStream, seen: number): Promise<boolean> {
    stream.seenThrough(seen);
    let cursor = seen;
    for (let first = true; stream.open; first = false) {
      const rows = await eventsFrom(db, cursor, REPLAY_PAGE + 1);
      // 0 is before the first event (the page document's mark of an empty table): none written, none missed.
      if (first && seen === 0 && rows.length === 0) return true;
      const kept = rows[0]?.id === cursor;
      if (!kept && !(first && rows[0]?.id === cursor + 1)) return false;
      const page = kept ? rows.slice(1) : rows;
      await stream.replay(page);
      if (rows.length <= REPLAY_PAGE) return true;
      cursor = page[page.length - 1]!.id;
    }
    return true;
  }

  // Written to the socket as they come: the schema documents the events, it serializes nothing.
  const schema = {
    tags: ['devices'],
    summary: 'The stream of changes the caller may see, as server-sent events',
    querystring: EventsQuery,
    response: {
      200: { description: 'Server-sent events', content: { 'text/event-stream': { schema: LiveEventStream } } },
    },
  };
  app.get('/api/events/', { schema }, async (request, reply) => {
    // Before subscribing: the hub must know where it starts, or events between could be neither replayed nor live.
    await hub.ready();
    const seen = lastSeenId(request.headers['last-event-id'], request.query.last_event_id);
    const { role, groupCode, expiresAt } = request.user;
    const accessToken = request.cookies[ACCESS_COOKIE];

    // Written to the socket as they come: no compression, no serializer.
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      // The connection ends with the stream, so a closing server is not held by it kept alive.
      connection: 'close',
    });
    const stream = new EventStream(response, (event) => event.visibleTo({ role, groupCode }));
    streams.add(stream);
    stream.onEnd(() => streams.delete(stream));
    if (closing) return stream.shutdown();
    stream.write('retry: 2000\n: connected\n\n');

    // Ends when the access token it was opened with expires, or at the first ping after the session is revoked.
    const expiry = setTimeout(() => stream.end(), Date.parse(expiresAt) - Date.now());
    const ping = setInterval(() => {
      authenticate(db, accessToken).then(
        (user) => (user ? stream.write(': ping\n\n') : stream.end()),
        // The database unreachable for a moment does not end the stream.
        () => stream.write(': ping\n\n'),
      );
    }, PING_MS);
    stream.onEnd(() => {
      clearTimeout(expiry);
      clearInterval(ping);
    });

    // Subscribed before the replay is read: an event committed meanwhile is in one or the other
    // (or both, and sent once).
    stream.onEnd(hub.subscribe(stream.live));
    try {
      if (seen === null || (seen !== undefined && !(await replay(stream, seen)))) stream.reset(await newestEventId(db));
      stream.goLive();
    } catch (error) {
      request.log.error({ err: error }, 'Replaying the events failed');
      stream.end();
    }
  });
};
