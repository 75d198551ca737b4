// Groups (docs/screens.md#create-group-form): the hubs and return centres users belong to. user/get_groups/ for every
// signed-in user, user/create_group/ for admins (src/groups/).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { canCreateGroup, type Organization } from '@veritas/shared/domain';
import { requireRole } from '../plugins/authentication';
import { createGroup, listGroups } from '../groups/groups';
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

  app.get('/user/get_groups/', { schema: { response: { 200: Type.Array(Group) } } }, async () => listGroups(db));

  app.post(
    '/user/create_group/',
    {
      preValidation: requireRole(canCreateGroup, 'You do not have permission to create a group.'),
      schema: { body: CreateGroup, response: { 201: Group } },
    },
    async (request, reply) => {
      const group = await createGroup(db, request.body);
      reply.code(201);
      return group;
    },
  );
};
