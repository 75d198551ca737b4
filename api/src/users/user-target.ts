// The target of a users' action (delete, (de)activate, reset password): the user named by the
// body's user_id, refused as the console's buttons are (userRoleRefusal of @veritas/shared/domain):
// never oneself, and only a role the caller may act on.
import type { Kysely } from 'kysely';
import { OWN_ACCOUNT_REFUSAL, userRoleRefusal, type Role, type UserActionKind } from '@veritas/shared/domain';
import type { Database } from '../db/schema';
import { Forbidden, NotFound } from '../http-errors';
import { findUserById } from './repository';

/** Loads the user `userId` names for `action` by `actor`, refusing oneself and a role userRoleRefusal refuses. */
export async function targetOf(
  kysely: Kysely<Database>,
  userId: number | string,
  actor: { id: number; role: Role },
  action: UserActionKind,
) {
  const id = Number(userId);
  if (id === actor.id) throw new Forbidden(OWN_ACCOUNT_REFUSAL);
  const target = await findUserById(kysely, id);
  if (!target) throw new NotFound('User not found.');
  const refusal = userRoleRefusal(action, actor.role, target.role);
  if (refusal) throw new Forbidden(refusal);
  return target;
}
