// Groups (docs/screens.md#create-group-form): the hubs and return centres users belong to. user/get_groups/ for every
// signed-in user, user/create_group/ for admins (with its event of the live stream, docs/events.md#groups).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { canCreateGroup, type Organization } from '@veritas/shared/domain';
import { requireRole } from '../plugins/authentication';
import { BadRequest } from '../errors';
import { groupEvent, writeEvents } from '../events/write';
import { OneOf, Text } from '../schemas';

export const ORGANIZATIONS = ['hub', 'RC'] as const satisfies readonly Organization[];

const Group = Type.Object({ name: Type.String(), code: Type.String(), organization: Type.String() });

const CreateGroup = Type.Object({
  code: Text(
    { missing: 'Code is required.', pattern: 'Code may only contain letters, digits, "-" and "_" (at most 32).' },
    { pattern: '^[A-Za-z0-9_-]{1,32}$' },
  ),
  organization: OneOf(ORGANIZATIONS, { missing: 'Organization is required.', enum: 'Organization must be hub or RC.' }),
  // The name shown for the group: non-blank text, else the code (anything else reads as absent).
  name: Type.Optional(Type.Unknown()),
});

export const groupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.get('/user/get_groups/', { schema: { response: { 200: Type.Array(Group) } } }, async () =>
    db.kysely
      .selectFrom('groups')
      .select(['name', 'code', 'organization'])
      .orderBy('organization')
      .orderBy('code')
      .execute(),
  );

  app.post(
    '/user/create_group/',
    {
      preValidation: requireRole(canCreateGroup, 'You do not have permission to create a group.'),
      schema: { body: CreateGroup, response: { 201: Group } },
    },
    async (request, reply) => {
      const { code, organization } = request.body;
      const name = (typeof request.body.name === 'string' && request.body.name.trim()) || code;
      const taken = await db.kysely.selectFrom('groups').select('id').where('code', '=', code).executeTakeFirst();
      if (taken) throw new BadRequest('code', `A group with code "${code}" already exists.`);
      await db.transaction(async (trx) => {
        await trx.insertInto('groups').values({ name, code, organization }).execute();
        await writeEvents(trx, db, [groupEvent({ name, code, organization })]);
      });
      reply.code(201);
      return { name, code, organization };
    },
  );
};
