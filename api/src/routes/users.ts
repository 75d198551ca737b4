// Users (docs/screens.md#create-user-and-create-group, docs/screens.md#deactivate-users, src/users/accounts.ts):
// user/create/, get_users/, delete_user/, deactivate_user/ and activate_user/. Passwords are in passwords.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreatedUser,
  MessageAnswer,
  NoQuery,
  UserAction,
  UserCreatePayload,
  UserList,
  canDeleteUser,
} from '@veritas/shared/domain';
import { requireRole } from '../plugins/authentication';
import { createUser, deleteUser, listUsers, setUserActive } from '../users/accounts';

/** The users' actions answer errors with `error` (the console's Deactivate Users page reads it). */
export const USER_ACTION = { errorField: 'error' } as const;

const tags = ['users'];

export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.post(
    '/user/create/',
    { schema: { tags, summary: 'Create a user', body: UserCreatePayload, response: { 201: CreatedUser } } },
    async (request, reply) => {
      const { username, role } = request.body;
      const id = await createUser(db, request.user, request.body);
      reply.code(201);
      return { message: 'User created successfully', id, username, role };
    },
  );

  const list = { tags, summary: 'The users the caller may see', querystring: NoQuery, response: { 200: UserList } };
  app.get('/user/get_users/', { schema: list }, async (request) => listUsers(db, request.user));

  app.post(
    '/user/delete_user/',
    {
      config: USER_ACTION,
      preValidation: requireRole(canDeleteUser, 'Only a super admin can delete users.'),
      schema: { tags, summary: 'Delete a user', body: UserAction, response: { 200: MessageAnswer } },
    },
    async (request) => {
      const username = await deleteUser(db, request.user, request.body.user_id);
      return { message: `User ${username} deleted successfully` };
    },
  );

  for (const verb of ['deactivate', 'activate'] as const) {
    app.post(
      `/user/${verb}_user/`,
      {
        config: USER_ACTION,
        schema: {
          tags,
          summary: `${verb === 'activate' ? 'Activate' : 'Deactivate'} a user`,
          body: UserAction,
          response: { 200: MessageAnswer },
        },
      },
      async (request) => {
        const username = await setUserActive(db, request.user, request.body.user_id, verb === 'activate');
        return { message: `User ${username} ${verb}d successfully` };
      },
    );
  }
};
