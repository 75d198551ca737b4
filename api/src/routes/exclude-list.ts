// api/exclude_list/ (src/exclude-list/): read by any console user, edited by admins.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireRole } from '../plugins/authentication';
import { excludeBrand, includeBrand, listExcludedBrands } from '../exclude-list/exclude-list';
import { canEditWhiteLabels } from '../roles';
import { MessageAnswer, Text } from '../schemas';

const MAX_BRAND_LENGTH = 128;

const Brand = Type.Object({
  brand: Text(
    { missing: 'brand is required.', maxLength: `brand must be at most ${MAX_BRAND_LENGTH} characters.` },
    { maxLength: MAX_BRAND_LENGTH },
  ),
});

export const excludeListRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  const editors = requireRole(canEditWhiteLabels, 'Only an admin or super admin can change the exclude list.');

  app.get('/api/exclude_list/', { schema: { response: { 200: Type.Array(Brand) } } }, async () =>
    listExcludedBrands(db),
  );

  app.post(
    '/api/exclude_list/',
    { preValidation: editors, schema: { body: Brand, response: { 201: Brand } } },
    async (request, reply) => {
      const { brand } = request.body;
      await excludeBrand(db, brand);
      reply.code(201);
      return { brand };
    },
  );

  app.post(
    '/api/exclude_list/remove/',
    { preValidation: editors, schema: { body: Brand, response: { 200: MessageAnswer } } },
    async (request) => {
      const { brand } = request.body;
      await includeBrand(db, brand);
      return { message: `${brand} removed from the exclude list` };
    },
  );
};
