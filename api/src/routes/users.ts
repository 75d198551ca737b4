// Users (docs/screens.md#create-user-and-create-group, docs/screens.md#deactivate-users): user/create/, get_users/, delete_user/, deactivate_user/ and activate_user/.
// Passwords are in passwords.ts, the shared target check of the actions in user-target.ts. Creating,
// activating and deactivating a user write its event of the live stream (docs/events.md#users).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ROLES,
  assignableRoles,
  canAssignRole,
  canDeleteUser,
  passwordProblem,
  type Organization,
} from '@veritas/shared/domain';
import { requireRole } from '../plugins/authentication';
import { hashPassword } from '../auth/passwords';
import { revokeUserSessions } from '../auth/sessions';
import { MAX_USERNAME_LENGTH } from '../auth/sign-in';
import { forgetOperator } from '../dashboard/summaries';
import { nowIso } from '../db/schema';
import { BadRequest, Forbidden } from '../errors';
import { userEvent, writeEvents } from '../events/write';
import { canListAllUsers, canManageUser } from '../roles';
import { MessageAnswer, OneOf, Secret, Text } from '../schemas';
import { ORGANIZATIONS } from './groups';
import { USER_ACTION, UserAction, targetOf } from './user-target';

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
      const actor = request.user;
      const { username, email, password, role } = request.body;
      // The password rule (shared with the console's form) depends on the username.
      const weakness = passwordProblem(password, username);
      if (weakness) throw new BadRequest('password', weakness);
      if (!canAssignRole(actor.role, role))
        throw new Forbidden(`Your role (${actor.role}) cannot create users with role ${role}.`);

      let groupId: number | null = null;
      if (role !== 'central_ops') {
        // Both checked by the schema for this role.
        const organization = request.body.organization as Organization;
        const groupCode = request.body.group as string;
        const group = await db.kysely
          .selectFrom('groups')
          .select(['id', 'organization'])
          .where('code', '=', groupCode)
          .executeTakeFirst();
        if (!group) throw new BadRequest('group', `Group "${groupCode}" does not exist.`);
        if (group.organization !== organization)
          throw new BadRequest('group', `Group "${groupCode}" does not belong to organization ${organization}.`);
        groupId = group.id;
      }

      const taken = await db.kysely
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirst();
      if (taken) throw new BadRequest('username', 'A user with that username already exists.');
      // Hashed before the transaction, which holds SQLite's one connection.
      const password_hash = await hashPassword(password);
      const created = await db.transaction(async (trx) => {
        const row = await trx
          .insertInto('users')
          .values({ username, email, password_hash, role, group_id: groupId, created_at: nowIso() })
          .returning('id')
          .executeTakeFirstOrThrow();
        await writeEvents(trx, db, [userEvent('created', username, role)]);
        return row;
      });
      reply.code(201);
      return { message: 'User created successfully', id: created.id, username, role };
    },
  );

  app.get('/user/get_users/', { schema: { response: { 200: UserList } } }, async (request) => {
    const actor = request.user;
    let query = db.kysely
      .selectFrom('users as u')
      .leftJoin('groups as g', 'g.id', 'u.group_id')
      .select(['u.id', 'u.username', 'u.role', 'u.is_active', 'g.name as group_name'])
      .orderBy('u.id');
    if (!canListAllUsers(actor.role)) {
      const roles = assignableRoles(actor.role);
      if (roles.length === 0) return [];
      query = query.where('u.role', 'in', roles);
    }
    const rows = await query.execute();
    return rows.map((row) => ({
      id: row.id,
      username: row.username,
      role: row.role,
      is_active: row.is_active === 1,
      group_info: row.group_name === null ? [] : [{ name: row.group_name }],
    }));
  });

  app.post(
    '/user/delete_user/',
    {
      config: USER_ACTION,
      preValidation: requireRole(canDeleteUser, 'Only a super admin can delete users.'),
      schema: { body: UserAction, response: { 200: MessageAnswer } },
    },
    async (request) => {
      const target = await targetOf(db, request.body.user_id, request.user.id, 'delete', () => true);
      await db.transaction(async (trx) => {
        await trx.deleteFrom('users').where('id', '=', target.id).execute();
        // The user's submissions lose their submitter (on delete set null): so do the dashboard's summaries.
        await forgetOperator(trx, target.id);
      });
      return { message: `User ${target.username} deleted successfully` };
    },
  );

  for (const [verb, active] of [
    ['deactivate', 0],
    ['activate', 1],
  ] as const) {
    app.post(
      `/user/${verb}_user/`,
      { config: USER_ACTION, schema: { body: UserAction, response: { 200: MessageAnswer } } },
      async (request) => {
        const actor = request.user;
        const target = await targetOf(db, request.body.user_id, actor.id, verb, (role) =>
          canManageUser(actor.role, role),
        );
        await db.transaction(async (trx) => {
          const { numUpdatedRows } = await trx
            .updateTable('users')
            .set({ is_active: active })
            .where('id', '=', target.id)
            .where('is_active', '<>', active)
            .executeTakeFirst();
          if (!active) await revokeUserSessions({ kysely: trx }, target.id);
          // An event only when the user's state changed: activating an active user changes nothing on screen.
          if (Number(numUpdatedRows) > 0)
            await writeEvents(trx, db, [userEvent(`${verb}d`, target.username, target.role)]);
        });
        return { message: `User ${target.username} ${verb}d successfully` };
      },
    );
  }
};
