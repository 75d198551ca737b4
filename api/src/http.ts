import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';

// Error answers. Every error body carries `detail`; routes add the field their console screen
// reads (`res` for login, `error` for users' actions) and `field` for invalid input.
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: { detail: string } & Record<string, unknown>,
    /** Headers of the answer, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(body.detail);
  }
}

export const badRequest = (field: string, detail: string, extra: Record<string, unknown> = {}) =>
  new HttpError(400, { detail, field, ...extra });

/** Reads a JSON object body; anything else is treated as empty so field checks report it. */
export function bodyOf(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * A response body written from a generator of large text chunks (a page of records each).
 * Bytes, not objects, so the generator runs only as fast as the client reads. better-sqlite3
 * answers a page's query synchronously, so a turn of the event loop between chunks lets other
 * requests in: they wait for one page at most, never for a run of pages the socket had room for.
 */
export function pagedBody(chunks: AsyncIterable<string>): Readable {
  async function* withTurns() {
    for await (const chunk of chunks) {
      yield chunk;
      await nextTurn();
    }
  }
  return Readable.from(withTurns(), { objectMode: false });
}
