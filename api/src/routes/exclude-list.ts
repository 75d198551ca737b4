// api/exclude_list/: the brands exempt from the manufacturer check of doorstep scans (E005/E006),
// e.g. brands whose devices carry other makers' radio modules. Read by any console user, edited
// by admins.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireRole } from '../plugins/authentication';
import { Conflict, NotFound } from '../errors';
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
    db.kysely.selectFrom('brand_exclusions').select('brand').orderBy('brand_key').execute(),
  );

  app.post(
    '/api/exclude_list/',
    { preValidation: editors, schema: { body: Brand, response: { 201: Brand } } },
    async (request, reply) => {
      const { brand } = request.body;
      const added = await db.kysely
        .insertInto('brand_exclusions')
        .values({ brand_key: brand.toLowerCase(), brand })
        .onConflict((oc) => oc.column('brand_key').doNothing())
        .executeTakeFirst();
      if (Number(added.numInsertedOrUpdatedRows) !== 1) throw new Conflict(`${brand} is already on the exclude list.`);
      reply.code(201);
      return { brand };
    },
  );

  app.post(
    '/api/exclude_list/remove/',
    { preValidation: editors, schema: { body: Brand, response: { 200: MessageAnswer } } },
    async (request) => {
      const { brand } = request.body;
      const removed = await db.kysely
        .deleteFrom('brand_exclusions')
        .where('brand_key', '=', brand.toLowerCase())
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) !== 1) throw new NotFound(`${brand} is not on the exclude list.`);
      return { message: `${brand} removed from the exclude list` };
    },
  );
};
