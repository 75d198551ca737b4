// The users' accounts (docs/screens.md#create-user-and-create-group, docs/screens.md#deactivate-users):
// creating, listing, deleting, deactivating and activating them, with the rules of who may do what.
// Creating, activating and deactivating a user write its event of the live stream (docs/events.md#users).
import {
  type UserCreatePayload,
  assignableRoles,
  canAssignRole,
  passwordProblem,
  type Organization,
  type UserListItem,
} from '@veritas/shared/domain';
import { hashPassword } from '../auth/password-hashing';
import { revokeUserSessions, type SessionUser } from '../auth/sessions';
import { forgetOperator } from '../dashboard/dashboard-summaries';
import { recordAudit, type AuditBy } from '../audit/trail';
import { lockUntilCommit } from '../db/engines';
import type { Db } from '../db/schema';
import { BadRequest, Forbidden } from '../http-errors';
import { userEvent, writeEvents } from '../events/write';
import { findGroupByCode } from '../groups/repository';
import { canListAllUsers } from '../auth/rights';
import {
  deleteUserById,
  findUserById,
  findUserNamedAlike,
  findUsersWithGroup,
  insertUser,
  updateUserActive,
} from './repository';
import { targetOf } from './user-target';

type Actor = Pick<SessionUser, 'id' | 'role'>;

const USERS_LOCK = 0x75_73_65_72_73; // 'users'

const userTarget = (user: { id: number; username: string }) =>
  ({ kind: 'user', id: user.id, label: user.username }) as const;

/** Creates the user after every check a form can fail; answers its id. */
export async function createUser(db: Db, actor: Actor, by: AuditBy, input: UserCreatePayload): Promise<number> {
  const { username, email, password, role } = input;
  // The password rule (shared with the console's form) depends on the username.
  const weakness = passwordProblem(password, username);
  if (weakness) throw new BadRequest('password', weakness);
  if (!canAssignRole(actor.role, role))
    throw new Forbidden(`Your role (${actor.role}) cannot create users with role ${role}.`);

  let groupId: number | null = null;
  if (role !== 'central_ops') {
    const organization = input.organization as Organization;
    const groupCode = input.group as string;
    const group = await findGroupByCode(db.kysely, groupCode);
    if (!group) throw new BadRequest('group', `Group "${groupCode}" does not exist.`);
    if (group.organization !== organization)
      throw new BadRequest('group', `Group "${groupCode}" does not belong to organization ${organization}.`);
    groupId = group.id;
  }

  // Hashed before the transaction, which holds SQLite's one connection.
  const password_hash = await hashPassword(password);
  return db.transaction(async (trx) => {
    // Taken ignoring case, so that no account passes for another ('Admin_demo' beside
    // 'admin_demo'); checked and inserted under one lock, so that two instances creating 'ana'
    // and 'Ana' at once cannot both pass (the exact unique index would take both).
    await lockUntilCommit(trx, db, USERS_LOCK);
    if (await findUserNamedAlike(trx, username))
      throw new BadRequest('username', 'A user with that username already exists.');
    const id = await insertUser(trx, { username, email, password_hash, role, group_id: groupId });
    await recordAudit(trx, db, by, {
      action: 'user.created',
      outcome: 'success',
      target: userTarget({ id, username }),
      details: { after: { username, email, role, group: input.group ?? null } },
    });
    await writeEvents(trx, db, [userEvent('created', username, role)]);
    return id;
  });
}

/** The users the actor may see: every user, or those of the roles the actor may assign. */
export async function listUsers(db: Db, actor: Actor): Promise<UserListItem[]> {
  const roles = canListAllUsers(actor.role) ? undefined : assignableRoles(actor.role);
  if (roles?.length === 0) return [];
  const rows = await findUsersWithGroup(db.kysely, roles);
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    role: row.role,
    is_active: row.is_active === 1,
    group_info: row.group_name === null ? [] : [{ name: row.group_name }],
  }));
}

/** Deletes the user (whom the route lets only a super admin delete); answers its username. */
export async function deleteUser(db: Db, actor: Actor, by: AuditBy, userId: number | string): Promise<string> {
  const target = await targetOf(db.kysely, userId, actor, 'delete');
  await db.transaction(async (trx) => {
    await deleteUserById(trx, target.id);
    // The user's submissions lose their submitter (on delete set null): so do the dashboard's summaries.
    await forgetOperator(trx, target.id);
    await recordAudit(trx, db, by, {
      action: 'user.deleted',
      outcome: 'success',
      target: userTarget(target),
      details: { before: { username: target.username, role: target.role } },
    });
  });
  return target.username;
}

/** Deactivates (ending every session) or activates the user; answers its username. */
export async function setUserActive(
  db: Db,
  actor: Actor,
  by: AuditBy,
  userId: number | string,
  active: boolean,
): Promise<string> {
  const verb = active ? 'activate' : 'deactivate';
  const target = await targetOf(db.kysely, userId, actor, 'toggle');
  await db.transaction(async (trx) => {
    const changed = await updateUserActive(trx, target.id, active ? 1 : 0);
    if (!active) await revokeUserSessions({ kysely: trx }, target.id);
    // An entry and an event only when the user's state changed: activating an active user changes nothing.
    if (!changed) return;
    await recordAudit(trx, db, by, {
      action: active ? 'user.activated' : 'user.deactivated',
      outcome: 'success',
      target: userTarget(target),
      details: { before: { is_active: !active }, after: { is_active: active } },
    });
    await writeEvents(trx, db, [userEvent(`${verb}d`, target.username, target.role)]);
  });
  return target.username;
}

/** The name of the user `id`, or null when there is none. */
export async function usernameOf(db: Db, id: number): Promise<string | null> {
  return (await findUserById(db.kysely, id))?.username ?? null;
}
