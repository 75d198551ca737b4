import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * A response body written from a generator of large chunks of text or bytes (a page of records each).
 * Bytes, not objects, so the generator runs only as fast as the client reads. better-sqlite3
 * answers a page's query synchronously, so a turn of the event loop between chunks lets other
 * requests in: they wait for one page at most, never for a run of pages the socket had room for.
 */
export function pagedBody(chunks: AsyncIterable<string | Buffer>): Readable {
  async function* withTurns() {
    for await (const chunk of chunks) {
      yield chunk;
      await nextTurn();
    }
  }
  return Readable.from(withTurns(), { objectMode: false });
}

/**
 * Sends a stream: it passes Fastify's serializer by, so the route's response schema documents the
 * answer without checking it (the typed reply of such a route takes only the schema's type).
 */
export function sendStream(reply: FastifyReply, body: Readable): FastifyReply {
  return reply.send(body);
}

/**
 * Sends JSON text the database rendered: text with a JSON content type passes Fastify's serializer
 * by, as a stream does, the route's response schema documenting it.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
