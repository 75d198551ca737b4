// api/get_status/: every device record, streamed as one JSON array.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
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

export const statusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // No response schema: the database renders each record's JSON (records.ts) and the pages are
  // streamed as they come; serializing them again would cost most of the answer's time.
  app.get('/api/get_status/', async (_request, reply) => {
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-store');
    return reply.send(pagedBody(jsonArray(app.db)));
  });
};
