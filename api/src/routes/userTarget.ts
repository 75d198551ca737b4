// The target of a users' action (delete, (de)activate, reset password): its body's user_id, the
// "never oneself" rule and the caller's rights, with the error bodies those actions answer.
import type { Db } from '../db/schema';
import { HttpError, bodyOf } from '../http';

/** The console's users' actions read `error`; every error body also has `detail`. */
export const userActionError = (statusCode: number, message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(statusCode, { error: message, detail: message, ...extra });

/** Loads the user named by `body.user_id`, refusing oneself and targets `allowed` refuses ("You cannot {verb} ..."). */
export async function targetOf(db: Db, body: unknown, actorId: number, verb: string, allowed: (targetRole: string) => boolean) {
  const raw = bodyOf(body).user_id;
  const userId = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId <= 0) {
    throw userActionError(400, 'A valid user_id is required.', { field: 'user_id' });
  }
  if (userId === actorId) throw userActionError(403, `You cannot ${verb} your own account.`);
  const target = await db.kysely.selectFrom('users').select(['id', 'username', 'role']).where('id', '=', userId).executeTakeFirst();
  if (!target) throw userActionError(404, 'User not found.');
  if (!allowed(target.role)) throw userActionError(403, `You do not have permission to ${verb} this user.`);
  return target;
}
