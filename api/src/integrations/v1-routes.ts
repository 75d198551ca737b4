// /veritas/api/v1/ (docs/integrations.md#the-api): what an order system calls with an API key, each
// route behind the scope it needs. Its rules are the console's: the same features' functions.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  CaseConflict,
  CaseIdParams,
  CasePage,
  CasePageQuery,
  CaseResolve,
  CaseSummary,
  RecordFeedPage,
  RecordFeedQuery,
} from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import { API_KEY_CASE_VIEWER } from '../auth/rights';
import { caseInPath } from '../cases/audit-targets';
import { resolveCase, type CaseActor } from '../cases/cases';
import { casePage } from '../cases/queue';
import { requireScope } from './api-keys';
import { recordFeedPage } from './records-feed';
import { sendJsonText } from '../streamed-body';

const tags = ['api v1'];

/** A key is no user: the queue's "assigned to me" matches no case. */
const KEY_CASE_VIEWER = { ...API_KEY_CASE_VIEWER, id: 0 };

/** The key as a case's actor: no user (the timeline names it `token "<label>"`), central_ops' rights. */
const keyActorOf = (request: FastifyRequest): CaseActor => ({
  ...API_KEY_CASE_VIEWER,
  id: null,
  username: request.accessToken!.label,
  by: auditByOf(request),
});

export const apiV1Routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.get(
    '/api/v1/records/',
    {
      preValidation: requireScope('records:read'),
      schema: {
        tags,
        summary: 'The records changed after a cursor or since a time, in commit order (scope records:read)',
        querystring: RecordFeedQuery,
        response: { 200: RecordFeedPage },
      },
    },
    // The database renders each record's JSON (records-feed.ts), sent as it is.
    async (request, reply) =>
      sendJsonText(reply.header('cache-control', 'no-store'), await recordFeedPage(db, request.query)),
  );

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

  app.post(
    '/api/v1/cases/:id/resolve/',
    {
      // Its 409s are recorded as the console's are; a key without the scope is recorded by requireScope.
      config: { audit: { action: 'case.resolved', refusals: [409], target: caseInPath } },
      preValidation: requireScope('cases:write'),
      schema: {
        tags,
        summary: 'Resolve a case with a disposition and a note, made on its version (scope cases:write)',
        params: CaseIdParams,
        body: CaseResolve,
        response: { 200: CaseSummary, 409: CaseConflict },
      },
    },
    async (request) => resolveCase(db, keyActorOf(request), Number(request.params.id), request.body),
  );
};
