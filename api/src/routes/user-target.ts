// The target of a users' action (delete, (de)activate, reset password): the user named by the
// body's user_id, the "never oneself" rule and the caller's rights over the target's role.
import { Type } from '@sinclair/typebox';
import type { Role } from '@veritas/shared/domain';
import type { Db } from '../db/schema';
import { Forbidden, NotFound } from '../errors';
import { Id } from '../schemas';

/** The users' actions answer errors with `error` (the console's Deactivate Users page reads it). */
export const USER_ACTION = { errorField: 'error' } as const;

export const UserId = Id('A valid user_id is required.');

export const UserAction = Type.Object({ user_id: UserId });

/** Loads the user `userId` names, refusing oneself and targets `allowed` refuses ("You cannot {verb} ..."). */
export async function targetOf(
  db: Db,
  userId: number | string,
  actorId: number,
  verb: string,
  allowed: (targetRole: Role) => boolean,
) {
  const id = Number(userId);
  if (id === actorId) throw new Forbidden(`You cannot ${verb} your own account.`);
  const target = await db.kysely
    .selectFrom('users')
    .select(['id', 'username', 'role'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!target) throw new NotFound('User not found.');
  if (!allowed(target.role)) throw new Forbidden(`You do not have permission to ${verb} this user.`);
  return target;
}
