// api/get_status/: every device record, streamed as one JSON array.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DeviceRecordList, NoQuery } from '@veritas/shared/domain';
import type { Db } from '../db/schema';
import { pagedBody, sendStream } from '../http';
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
  // The database renders each record's JSON (records.ts) and the pages are streamed as they come:
  // a stream passes Fastify's serializer by, so the response schema documents the answer without
  // serializing it again, which would cost most of the answer's time.
  const schema = {
    tags: ['devices'],
    summary: 'Every device record',
    querystring: NoQuery,
    response: { 200: DeviceRecordList },
  };
  app.get('/api/get_status/', { schema }, async (_request, reply) => {
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-store');
    return sendStream(reply, pagedBody(jsonArray(app.db)));
  });
};
