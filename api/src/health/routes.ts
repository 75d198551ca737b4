// health/live/ and health/ready/: for a proxy or an orchestrator, open to anyone (they tell nothing
// but whether to send traffic here). Live: the process answers. Ready: the database answers and
// holds every migration of this code. While the server closes (SIGTERM, docs/operations.md), it
// answers 503 to every request, these included, so a proxy stops sending here (server.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LiveAnswer, NoQuery, NotReadyAnswer, ReadyAnswer } from '@veritas/shared/domain';
import { DATABASE_RETRY_AFTER_SECONDS } from '../http-errors';
import { notReadyReason } from './readiness';

const tags = ['health'];

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health/live/',
    { schema: { tags, summary: 'Liveness: the process answers', querystring: NoQuery, response: { 200: LiveAnswer } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'live' as const };
    },
  );

  app.get(
    '/health/ready/',
    {
      schema: {
        tags,
        summary: 'Readiness: the database answers and holds every migration',
        querystring: NoQuery,
        response: { 200: ReadyAnswer, 503: NotReadyAnswer },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const reason = await notReadyReason(app.db, request.log);
      // As every 503 of the API: when to ask again (docs/errors.md).
      if (reason) return reply.code(503).header('retry-after', DATABASE_RETRY_AFTER_SECONDS).send({ detail: reason });
      return { status: 'ready' as const };
    },
  );
};
