// api/get_status/: every device record, streamed as one JSON array.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/guard';
import type { Db } from '../db/schema';
import { pagedBody } from '../http';
import { recordJsonPages } from '../records';

const PAGE_SIZE = 5000;

/** Writes page by page so memory stays flat however many records there are. */
async function* jsonArray(db: Db): AsyncGenerator<string> {
  let first = true;
  for await (const page of recordJsonPages(db, PAGE_SIZE)) {
    yield (first ? '[' : ',') + page.join(',');
    first = false;
  }
  yield first ? '[]' : ']';
}

export async function statusRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get('/api/get_status/', async (request, reply) => {
    await requireUser(db, request);
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-store');
    return reply.send(pagedBody(jsonArray(db)));
  });
}
