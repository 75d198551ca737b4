// user/* routes (SPEC.md §7): sign-in, session, user management and the mobile app package.
import fs from 'node:fs/promises';
import { passwordProblem } from '@veritas/shared/domain';
import type { FastifyInstance } from 'fastify';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearSessionCookies, setSessionCookies, setXsrfCookie } from '../auth/cookies';
import { requireUser } from '../auth/guard';
import { hashPassword } from '../auth/passwords';
import { MAX_USERNAME_LENGTH, signInUser } from '../auth/signIn';
import { revokeSession, revokeUserSessions, rotateRefreshToken, sessionOfToken, startSession } from '../auth/sessions';
import type { Db } from '../db/schema';
import { nowIso } from '../db/schema';
import { HttpError, badRequest, bodyOf, text } from '../http';
import {
  assignableRoles,
  canAssign,
  canCreateGroup,
  canDeleteUser,
  canDownloadApk,
  canListAllUsers,
  canManageUser,
  canUseWeb,
  isRole,
} from '../roles';
import { targetOf, userActionError } from './userTarget';

export interface UserRoutesOptions {
  db: Db;
  apkPath?: string;
}


const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const GROUP_CODE = /^[A-Za-z0-9_-]{1,32}$/;
const ORGANIZATIONS = ['hub', 'RC'] as const;
const isOrganization = (value: string): value is (typeof ORGANIZATIONS)[number] => (ORGANIZATIONS as readonly string[]).includes(value);

export async function userRoutes(app: FastifyInstance, { db, apkPath }: UserRoutesOptions) {
  app.post('/user/login/', async (request, reply) => {
    const user = await signInUser(db, request.body, request.ip);
    if (!canUseWeb(user.role)) return { is_webview: false, role: user.role };

    setSessionCookies(request, reply, await startSession(db, user.id));
    setXsrfCookie(request, reply);
    return { is_webview: true, role: user.role };
  });

  app.post('/user/refresh/', async (request, reply) => {
    const tokens = await rotateRefreshToken(db, request.cookies[REFRESH_COOKIE]);
    if (!tokens) {
      clearSessionCookies(reply);
      throw new HttpError(401, { detail: 'Session expired. Please sign in again.' });
    }
    setSessionCookies(request, reply, tokens);
    return { message: 'Session refreshed' };
  });

  app.post('/user/logout/', async (request, reply) => {
    const sessionId =
      (await sessionOfToken(db, request.cookies[ACCESS_COOKIE])) ?? (await sessionOfToken(db, request.cookies[REFRESH_COOKIE]));
    if (sessionId) await revokeSession(db, sessionId);
    clearSessionCookies(reply);
    return { message: 'Logged out' };
  });

  app.get('/user/is_LoggedIn/', async (request) => {
    await requireUser(db, request);
    return { is_logged_in: true };
  });

  app.get('/user/get_role/', async (request) => {
    const user = await requireUser(db, request);
    const group =
      user.groupId === null
        ? undefined
        : await db.kysely.selectFrom('groups').select(['code', 'organization']).where('id', '=', user.groupId).executeTakeFirst();
    return { user: user.username, role: user.role, hub_code: group?.organization === 'hub' ? group.code : null };
  });

  app.get('/user/get_groups/', async (request) => {
    await requireUser(db, request);
    return db.kysely.selectFrom('groups').select(['name', 'code', 'organization']).orderBy('organization').orderBy('code').execute();
  });

  app.post('/user/create/', async (request, reply) => {
    const actor = await requireUser(db, request);
    const body = bodyOf(request.body);
    const username = text(body.username);
    const email = text(body.email);
    const password = typeof body.password === 'string' ? body.password : '';
    const role = text(body.role);
    const organization = text(body.organization);
    const groupCode = text(body.group);

    if (!username) throw badRequest('username', 'Username is required.');
    if (username.length > MAX_USERNAME_LENGTH) throw badRequest('username', `Username must be at most ${MAX_USERNAME_LENGTH} characters.`);
    if (!email) throw badRequest('email', 'Email is required.');
    if (!EMAIL.test(email) || email.length > 254) throw badRequest('email', 'Enter a valid email address.');
    if (!password) throw badRequest('password', 'Password is required.');
    const weakness = passwordProblem(password, username);
    if (weakness) throw badRequest('password', weakness);
    if (!role) throw badRequest('role', 'Role is required.');
    if (!isRole(role)) throw badRequest('role', `Unknown role "${role}".`);
    if (!canAssign(actor.role, role)) {
      throw new HttpError(403, { detail: `Your role (${actor.role}) cannot create users with role ${role}.` });
    }

    // central_ops work across all hubs and belong to no group.
    let groupId: number | null = null;
    if (role !== 'central_ops') {
      if (!organization) throw badRequest('organization', 'Organization is required for this role.');
      if (!isOrganization(organization)) throw badRequest('organization', 'Organization must be hub or RC.');
      if (!groupCode) throw badRequest('group', 'Group is required for this role.');
      const group = await db.kysely.selectFrom('groups').select(['id', 'organization']).where('code', '=', groupCode).executeTakeFirst();
      if (!group) throw badRequest('group', `Group "${groupCode}" does not exist.`);
      if (group.organization !== organization) throw badRequest('group', `Group "${groupCode}" does not belong to organization ${organization}.`);
      groupId = group.id;
    }

    const taken = await db.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
    if (taken) throw badRequest('username', 'A user with that username already exists.');
    const created = await db.kysely
      .insertInto('users')
      .values({ username, email, password_hash: await hashPassword(password), role, group_id: groupId, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    reply.code(201);
    return { message: 'User created successfully', id: created.id, username, role };
  });

  app.post('/user/create_group/', async (request, reply) => {
    const actor = await requireUser(db, request);
    if (!canCreateGroup(actor.role)) throw new HttpError(403, { detail: 'You do not have permission to create a group.' });
    const body = bodyOf(request.body);
    const code = text(body.code);
    const organization = text(body.organization);
    if (!code) throw badRequest('code', 'Code is required.');
    if (!GROUP_CODE.test(code)) throw badRequest('code', 'Code may only contain letters, digits, "-" and "_" (at most 32).');
    if (!organization) throw badRequest('organization', 'Organization is required.');
    if (!isOrganization(organization)) throw badRequest('organization', 'Organization must be hub or RC.');
    const name = text(body.name) || code;

    const taken = await db.kysely.selectFrom('groups').select('id').where('code', '=', code).executeTakeFirst();
    if (taken) throw badRequest('code', `A group with code "${code}" already exists.`);
    await db.kysely.insertInto('groups').values({ name, code, organization }).execute();
    reply.code(201);
    return { name, code, organization };
  });

  app.get('/user/get_users/', async (request) => {
    const actor = await requireUser(db, request);
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

  app.post('/user/delete_user/', async (request) => {
    const actor = await requireUser(db, request);
    if (!canDeleteUser(actor.role)) {
      throw userActionError(403, 'Only a super admin can delete users.');
    }
    const target = await targetOf(db, request.body, actor.id, 'delete', () => true);
    await db.kysely.deleteFrom('users').where('id', '=', target.id).execute();
    return { message: `User ${target.username} deleted successfully` };
  });

  for (const [verb, active] of [
    ['deactivate', 0],
    ['activate', 1],
  ] as const) {
    app.post(`/user/${verb}_user/`, async (request) => {
      const actor = await requireUser(db, request);
      const target = await targetOf(db, request.body, actor.id, verb, (role) => canManageUser(actor.role, role));
      await db.kysely.updateTable('users').set({ is_active: active }).where('id', '=', target.id).execute();
      if (!active) await revokeUserSessions(db, target.id);
      return { message: `User ${target.username} ${verb}d successfully` };
    });
  }

  app.get('/user/download_apk/', async (request, reply) => {
    const actor = await requireUser(db, request);
    const apkError = (statusCode: number, message: string) => new HttpError(statusCode, { error: message, detail: message });
    if (!canDownloadApk(actor.role)) throw apkError(403, 'Only an admin or super admin can download the mobile app package.');
    if (!apkPath) throw apkError(404, 'No mobile app package is configured on this server (VERITAS_APK_PATH).');
    // Length and bytes come from one open file, so a package swapped in meanwhile cannot make them disagree.
    const file = await fs.open(apkPath).catch(() => null);
    const stats = await file?.stat();
    if (!file || !stats?.isFile()) {
      await file?.close();
      request.log.warn({ apkPath }, 'VERITAS_APK_PATH names no readable file');
      throw apkError(404, 'The mobile app package configured on this server (VERITAS_APK_PATH) was not found.');
    }
    reply
      .type('application/vnd.android.package-archive')
      .header('content-disposition', 'attachment; filename="veritas_app.apk"')
      .header('content-length', stats.size)
      .header('cache-control', 'no-store');
    return reply.send(file.createReadStream());
  });
}
