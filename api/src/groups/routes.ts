// Groups (docs/screens.md#create-group-form, src/groups/): the hubs and return centres users belong
// to. user/get_groups/ for every signed-in user, user/create_group/ for admins.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateGroup, Group, GroupList, NoQuery, canCreateGroup } from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import { targetOfBodyField } from '../audit/refusals';
import { requireRole } from '../plugins/authentication';
import { createGroup, listGroups } from './groups';

const tags = ['users'];

export const groupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  const list = { tags, summary: 'Every hub and return centre', querystring: NoQuery, response: { 200: GroupList } };
  app.get('/user/get_groups/', { schema: list }, async () => listGroups(db));

  app.post(
    '/user/create_group/',
    {
      config: { audit: { action: 'group.created', target: targetOfBodyField('group', 'code') } },
      preValidation: requireRole(canCreateGroup, 'You do not have permission to create a group.'),
      schema: { tags, summary: 'Create a hub or return centre', body: CreateGroup, response: { 201: Group } },
    },
    async (request, reply) => {
      const group = await createGroup(db, auditByOf(request), request.body);
      reply.code(201);
      return group;
    },
  );
};
