// Passwords users can change: one's own from the console (user/change_password/), and another's
// by whoever may (de)activate them (user/reset_password/). Both apply the password rule of
// @veritas/shared and end sessions at once, since a password that changed may have leaked.
import { passwordProblem } from '@veritas/shared/domain';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/guard';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { revokeUserSessions } from '../auth/sessions';
import { clearFailures, clearUserFailures, recordFailure, refuseWhenThrottled } from '../auth/loginThrottle';
import type { Db } from '../db/schema';
import { HttpError, bodyOf } from '../http';
import { canManageUser } from '../roles';
import { targetOf, userActionError } from './userTarget';

const inputError = (field: string, message: string) => userActionError(400, message, { field });

/** A refusal of sign-in throttling, in the error body of the users' actions. */
function asUserActionError(error: unknown): never {
  if (!(error instanceof HttpError)) throw error;
  throw new HttpError(error.statusCode, { error: error.body.detail, detail: error.body.detail }, error.headers);
}

/** The password in `body[field]`, checked against the rule for `username`. */
function newPasswordOf(body: Record<string, unknown>, field: string, username: string): string {
  const value = body[field];
  const password = typeof value === 'string' ? value : '';
  if (!password) throw inputError(field, 'A new password is required.');
  const problem = passwordProblem(password, username);
  if (problem) throw inputError(field, problem);
  return password;
}

export async function passwordRoutes(app: FastifyInstance, { db }: { db: Db }) {
  /** Stores the new password and ends the user's sessions but `keep`, in one transaction. */
  async function setPassword(userId: number, password: string, keep?: string): Promise<void> {
    const hash = await hashPassword(password);
    await db.kysely.transaction().execute(async (kysely) => {
      await kysely.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
      await revokeUserSessions({ kysely }, userId, keep);
    });
  }

  app.post('/user/change_password/', async (request) => {
    const user = await requireUser(db, request);
    const body = bodyOf(request.body);
    const current = typeof body.current_password === 'string' ? body.current_password : '';
    if (!current) throw inputError('current_password', 'The current password is required.');
    const password = newPasswordOf(body, 'new_password', user.username);

    // Wrong current passwords are failed sign-ins of the account from this address (sign-in
    // throttling), so a session left open cannot be used to guess the password without limit.
    const attempt = { address: request.ip, username: user.username };
    await refuseWhenThrottled(db, attempt).catch(asUserActionError);
    const stored = await db.kysely.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    if (!(await verifyPassword(current, stored.password_hash))) {
      await recordFailure(db, attempt);
      throw inputError('current_password', 'The current password is not correct.');
    }
    await clearFailures(db, attempt);

    // The session making the change stays signed in; every other one, app tokens included, ends.
    await setPassword(user.id, password, user.sessionId);
    return { message: 'Your password has been changed. Your other sessions have been signed out.' };
  });

  app.post('/user/reset_password/', async (request) => {
    const actor = await requireUser(db, request);
    const target = await targetOf(db, request.body, actor.id, 'reset the password of', (role) => canManageUser(actor.role, role));
    const password = newPasswordOf(bodyOf(request.body), 'new_password', target.username);
    await setPassword(target.id, password);
    // A user throttled by failed sign-ins is typically why a reset is asked for: let the new password in.
    await clearUserFailures(db, target.username);
    return { message: `Password of user ${target.username} reset successfully. Their sessions have been signed out.` };
  });
}
