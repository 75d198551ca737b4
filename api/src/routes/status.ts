// api/get_status/: every device record, streamed as one JSON array.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/guard';
import type { Db } from '../db/schema';
import { recordPages, toApiRecord } from '../records';

const PAGE_SIZE = 2000;

/** Serialises page by page so memory stays flat however many records there are. */
async function* jsonArray(db: Db): AsyncGenerator<string> {
  let first = true;
  for await (const page of recordPages(db, PAGE_SIZE)) {
    const items = JSON.stringify(page.map(toApiRecord));
    // Drop the page's own brackets; pages are joined into one array.
    yield (first ? '[' : ',') + items.slice(1, -1);
    first = false;
  }
  yield first ? '[]' : ']';
}

export async function statusRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get('/api/get_status/', async (request, reply) => {
    await requireUser(db, request);
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-store');
    return reply.send(Readable.from(jsonArray(db)));
  });
}
