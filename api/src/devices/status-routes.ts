// api/get_status/: every device record, streamed as one JSON array.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DeviceRecordList, NoQuery } from '@veritas/shared/domain';
import { pagedBody, sendStream } from '../streamed-body';
import { recordJsonArray } from './record-json';

export const statusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The database renders each record's JSON (record-json.ts) and the pages are streamed as they come:
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
    return sendStream(reply, pagedBody(recordJsonArray(app.db)));
  });
};
