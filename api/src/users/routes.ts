// Users (docs/screens.md#create-user-and-create-group, docs/screens.md#deactivate-users, src/users/accounts.ts):
// user/create/, get_users/, delete_user/, deactivate_user/ and activate_user/. Passwords are in password-routes.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreatedUser,
  MAX_USERNAME_LENGTH,
  type AuditAction,
  MessageAnswer,
  NoQuery,
  UserAction,
  UserCreatePayload,
  UserList,
  DELETE_USERS_REFUSAL,
  canDeleteUser,
} from '@veritas/shared/domain';
import type { FastifyRequest } from 'fastify';
import { auditByOf } from '../audit/actor';
import { targetOfBodyField } from '../audit/refusals';
import type { AuditTarget } from '../audit/trail';
import { serialIdOf, type Db } from '../db/schema';
import { requireRole } from '../plugins/authentication';
import { createUser, deleteUser, listUsers, setUserActive, usernameOf } from './accounts';

/** The users' actions answer errors with `error` (the console's Deactivate Users page reads it). */
export const USER_ACTION = { errorField: 'error' } as const;

/** The user a body's user_id names, for the audit entry of a refused action on it. */
export async function userOfBody(request: FastifyRequest, db: Db): Promise<AuditTarget | null> {
  const id = serialIdOf((request.body as { user_id?: unknown } | undefined)?.user_id);
  if (id === null) return null;
  return { kind: 'user', id, label: (await usernameOf(db, id)) ?? `#${id}` };
}

/** The audit config of a users' action on the user its body names. */
export const auditedUserAction = (action: AuditAction) => ({ ...USER_ACTION, audit: { action, target: userOfBody } });

const tags = ['users'];

export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.post(
    '/user/create/',
    {
      config: { audit: { action: 'user.created', target: targetOfBodyField('user', 'username', MAX_USERNAME_LENGTH) } },
      schema: { tags, summary: 'Create a user', body: UserCreatePayload, response: { 201: CreatedUser } },
    },
    async (request, reply) => {
      const { username, role } = request.body;
      const id = await createUser(db, request.user, auditByOf(request), request.body);
      reply.code(201);
      return { message: 'User created successfully', id, username, role };
    },
  );

  const list = { tags, summary: 'The users the caller may see', querystring: NoQuery, response: { 200: UserList } };
  app.get('/user/get_users/', { schema: list }, async (request) => listUsers(db, request.user));

  app.post(
    '/user/delete_user/',
    {
      config: auditedUserAction('user.deleted'),
      preValidation: requireRole(canDeleteUser, DELETE_USERS_REFUSAL),
      schema: { tags, summary: 'Delete a user', body: UserAction, response: { 200: MessageAnswer } },
    },
    async (request) => {
      const username = await deleteUser(db, request.user, auditByOf(request), request.body.user_id);
      return { message: `User ${username} deleted successfully` };
    },
  );

  for (const verb of ['deactivate', 'activate'] as const) {
    app.post(
      `/user/${verb}_user/`,
      {
        config: auditedUserAction(verb === 'activate' ? 'user.activated' : 'user.deactivated'),
        schema: {
          tags,
          summary: `${verb === 'activate' ? 'Activate' : 'Deactivate'} a user`,
          body: UserAction,
          response: { 200: MessageAnswer },
        },
      },
      async (request) => {
        const { user_id: userId } = request.body;
        const username = await setUserActive(db, request.user, auditByOf(request), userId, verb === 'activate');
        return { message: `User ${username} ${verb}d successfully` };
      },
    );
  }
};
