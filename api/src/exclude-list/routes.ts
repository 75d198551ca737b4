// api/exclude_list/ (src/exclude-list/): read by any console user, edited by admins.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ExcludeList, ExcludedBrand, MessageAnswer, NoQuery } from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import { targetOfBodyField } from '../audit/refusals';
import { requireRole } from '../plugins/authentication';
import { excludeBrand, includeBrand, listExcludedBrands } from './exclude-list';
import { canEditWhiteLabels } from '../auth/rights';

const tags = ['white labels'];

const AUDITED = {
  audit: { action: 'exclude-list.changed', target: targetOfBodyField('exclude-list', 'brand') },
} as const;

export const excludeListRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  const editors = requireRole(canEditWhiteLabels, 'Only an admin or super admin can change the exclude list.');

  const list = {
    tags,
    summary: 'The brands exempt from the manufacturer check',
    querystring: NoQuery,
    response: { 200: ExcludeList },
  };
  app.get('/api/exclude_list/', { schema: list }, async () => listExcludedBrands(db));

  app.post(
    '/api/exclude_list/',
    {
      config: AUDITED,
      preValidation: editors,
      schema: {
        tags,
        summary: 'Add a brand to the exclude list',
        body: ExcludedBrand,
        response: { 201: ExcludedBrand },
      },
    },
    async (request, reply) => {
      const { brand } = request.body;
      await excludeBrand(db, auditByOf(request), brand);
      reply.code(201);
      return { brand };
    },
  );

  app.post(
    '/api/exclude_list/remove/',
    {
      config: AUDITED,
      preValidation: editors,
      schema: {
        tags,
        summary: 'Remove a brand from the exclude list',
        body: ExcludedBrand,
        response: { 200: MessageAnswer },
      },
    },
    async (request) => {
      const { brand } = request.body;
      await includeBrand(db, auditByOf(request), brand);
      return { message: `${brand} removed from the exclude list` };
    },
  );
};
