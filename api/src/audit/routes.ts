// The audit trail's calls (docs/audit.md): its pages, its CSV export and the check of its chain.
// Admins and super admins read it; verifying the chain is a super admin's. Nothing changes or
// removes an entry: there is no call that could.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AuditFilterQuery, AuditPage, AuditPageQuery, AuditVerification, NoQuery } from '@veritas/shared/domain';
import { verifyChain } from './chain';
import { auditCsv, auditPage } from './search';
import { pagedBody, sendStream } from '../streamed-body';
import { requireRole } from '../plugins/authentication';
import { canReadAuditLog, canVerifyAuditLog } from '../auth/rights';

const tags = ['audit'];

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  const readers = requireRole(canReadAuditLog, 'Only admins can read the audit log.');

  app.get(
    '/audit/',
    {
      preValidation: readers,
      schema: {
        tags,
        summary: 'A page of the audit trail, newest first, with its filters',
        querystring: AuditPageQuery,
        response: { 200: AuditPage },
      },
    },
    async (request) => auditPage(db, request.query),
  );

  app.get(
    '/audit/export/',
    {
      preValidation: readers,
      schema: {
        tags,
        summary: 'The entries matching the filters, newest first, as a CSV file',
        querystring: AuditFilterQuery,
        response: {
          200: { description: 'The entries', content: { 'text/csv': { schema: { type: 'string' } } } },
        },
      },
    },
    async (request, reply) => {
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('cache-control', 'no-store');
      return sendStream(reply, pagedBody(auditCsv(db, request.query)));
    },
  );

  app.get(
    '/audit/verify/',
    {
      preValidation: requireRole(canVerifyAuditLog, 'Only a super admin can verify the audit log.'),
      schema: {
        tags,
        summary: 'Whether the hash chain holds, or the first entry where it breaks',
        querystring: NoQuery,
        response: { 200: AuditVerification },
      },
    },
    async () => verifyChain(db),
  );
};
