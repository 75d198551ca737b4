// The target of a users' action (delete, (de)activate, reset password): the user named by the
// body's user_id, the "never oneself" rule and the caller's rights over the target's role.
import type { Kysely } from 'kysely';
import type { Role } from '@veritas/shared/domain';
import type { Database } from '../db/schema';
import { Forbidden, NotFound } from '../http-errors';
import { findUserById } from './repository';

/** Loads the user `userId` names, refusing oneself and targets `allowed` refuses ("You cannot {verb} ..."). */
export async function targetOf(
  kysely: Kysely<Database>,
  userId: number | string,
  actorId: number,
  verb: string,
  allowed: (targetRole: Role) => boolean,
) {
  const id = Number(userId);
  if (id === actorId) throw new Forbidden(`You cannot ${verb} your own account.`);
  const target = await findUserById(kysely, id);
  if (!target) throw new NotFound('User not found.');
  if (!allowed(target.role)) throw new Forbidden(`You do not have permission to ${verb} this user.`);
  return target;
}
