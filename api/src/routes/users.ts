// Users (docs/screens.md#create-user-and-create-group, docs/screens.md#deactivate-users): user/create/, get_users/,
// delete_user/, deactivate_user/ and activate_user/ (src/users/accounts.ts). Passwords are in passwords.ts.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ROLES, canDeleteUser } from '@veritas/shared/domain';
import { requireRole } from '../plugins/authentication';
import { MAX_USERNAME_LENGTH } from '../auth/sign-in';
import { createUser, deleteUser, listUsers, setUserActive } from '../users/accounts';
import { Id, MessageAnswer, OneOf, Secret, Text } from '../schemas';
import { ORGANIZATIONS } from './groups';

/** The users' actions answer errors with `error` (the console's Deactivate Users page reads it). */
export const USER_ACTION = { errorField: 'error' } as const;

export const UserId = Id('A valid user_id is required.');

const UserAction = Type.Object({ user_id: UserId });

const CreateUser = Type.Object(
  {
    username: Text(
      { missing: 'Username is required.', maxLength: `Username must be at most ${MAX_USERNAME_LENGTH} characters.` },
      { maxLength: MAX_USERNAME_LENGTH },
    ),
    email: Text(
      {
        missing: 'Email is required.',
        maxLength: 'Enter a valid email address.',
        pattern: 'Enter a valid email address.',
      },
      { maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' },
    ),
    password: Secret('Password is required.'),
    role: OneOf(ROLES, { missing: 'Role is required.', enum: 'Unknown role "{value}".' }),
    // Checked by the `else` below: every role but central_ops (who work across all hubs and belong
    // to no group) needs both; central_ops' are ignored, whatever they are.
    organization: Type.Optional(Type.Unknown()),
    group: Type.Optional(Type.Unknown()),
  },
  {
    if: {
      type: 'object',
      properties: { role: { type: 'string', pattern: '^\\s*central_ops\\s*$' } },
      required: ['role'],
    },
    else: Type.Object({
      organization: OneOf(ORGANIZATIONS, {
        missing: 'Organization is required for this role.',
        enum: 'Organization must be hub or RC.',
      }),
      group: Text({ missing: 'Group is required for this role.' }),
    }),
  },
);

const UserList = Type.Array(
  Type.Object({
    id: Type.Integer(),
    username: Type.String(),
    role: Type.String(),
    is_active: Type.Boolean(),
    group_info: Type.Array(Type.Object({ name: Type.String() })),
  }),
);

export const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.post(
    '/user/create/',
    {
      schema: {
        body: CreateUser,
        response: {
          201: Type.Object({
            message: Type.String(),
            id: Type.Integer(),
            username: Type.String(),
            role: Type.String(),
          }),
        },
      },
    },
    async (request, reply) => {
      const { username, role } = request.body;
      const id = await createUser(db, request.user, request.body);
      reply.code(201);
      return { message: 'User created successfully', id, username, role };
    },
  );

  app.get('/user/get_users/', { schema: { response: { 200: UserList } } }, async (request) =>
    listUsers(db, request.user),
  );

  app.post(
    '/user/delete_user/',
    {
      config: USER_ACTION,
      preValidation: requireRole(canDeleteUser, 'Only a super admin can delete users.'),
      schema: { body: UserAction, response: { 200: MessageAnswer } },
    },
    async (request) => {
      const username = await deleteUser(db, request.user, request.body.user_id);
      return { message: `User ${username} deleted successfully` };
    },
  );

  for (const verb of ['deactivate', 'activate'] as const) {
    app.post(
      `/user/${verb}_user/`,
      { config: USER_ACTION, schema: { body: UserAction, response: { 200: MessageAnswer } } },
      async (request) => {
        const username = await setUserActive(db, request.user, request.body.user_id, verb === 'activate');
        return { message: `User ${username} ${verb}d successfully` };
      },
    );
  }
};
