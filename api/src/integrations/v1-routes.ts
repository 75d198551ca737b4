// /veritas/api/v1/ (docs/integrations.md#the-api): what an order system calls with an API key, each
// route behind the scope it needs. Its rules are the console's: the same features' functions.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CasePage, CasePageQuery } from '@veritas/shared/domain';
import { API_KEY_CASE_VIEWER } from '../auth/rights';
import { casePage } from '../cases/queue';
import { requireScope } from './api-keys';

const tags = ['api v1'];

/** A key is no user: the queue's "assigned to me" matches no case. */
const KEY_CASE_VIEWER = { ...API_KEY_CASE_VIEWER, id: 0 };

export const apiV1Routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.get(
    '/api/v1/cases/',
    {
      preValidation: requireScope('cases:read'),
      schema: {
        tags,
        summary: 'A page of the cases, by due time, with the queue’s filters (scope cases:read)',
        querystring: CasePageQuery,
        response: { 200: CasePage },
      },
    },
    async (request) => casePage(db, KEY_CASE_VIEWER, request.query),
  );
};
