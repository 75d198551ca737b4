// Passwords users can change: one's own from the console (user/change_password/), and another's
// by whoever may (de)activate them (user/reset_password/). Both apply the password rule of
// @veritas/shared and end sessions at once, since a password that changed may have leaked.
// Errors carry `error`, like the users' actions, throttling's 429 included.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { passwordProblem } from '@veritas/shared/domain';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { revokeUserSessions } from '../auth/sessions';
import { clearFailures, clearUserFailures, recordFailure, refuseWhenThrottled } from '../auth/login-throttle';
import { BadRequest } from '../errors';
import { canManageUser } from '../roles';
import { MessageAnswer, Secret } from '../schemas';
import { USER_ACTION, UserId, targetOf } from './user-target';

const NewPassword = Secret('A new password is required.');

const ChangePassword = Type.Object({
  current_password: Secret('The current password is required.'),
  new_password: NewPassword,
});
const ResetPassword = Type.Object({ user_id: UserId, new_password: NewPassword });

/** The rule for `username`, which depends on the user: checked after the schema. */
function checkRule(password: string, username: string): void {
  const problem = passwordProblem(password, username);
  if (problem) throw new BadRequest('new_password', problem);
}

export const passwordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  /** Stores the new password and ends the user's sessions but `keep`, in one transaction. */
  async function setPassword(userId: number, password: string, keep?: string): Promise<void> {
    const hash = await hashPassword(password);
    await db.transaction(async (kysely) => {
      await kysely.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
      await revokeUserSessions({ kysely }, userId, keep);
    });
  }

  app.post(
    '/user/change_password/',
    { config: USER_ACTION, schema: { body: ChangePassword, response: { 200: MessageAnswer } } },
    async (request) => {
      const user = request.user;
      const { current_password: current, new_password: password } = request.body;
      checkRule(password, user.username);

      // Wrong current passwords are failed sign-ins of the account from this address (sign-in
      // throttling), so a session left open cannot be used to guess the password without limit.
      const attempt = { address: request.ip, username: user.username };
      await refuseWhenThrottled(db, attempt);
      const stored = await db.kysely
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      if (!(await verifyPassword(current, stored.password_hash))) {
        await recordFailure(db, attempt);
        throw new BadRequest('current_password', 'The current password is not correct.');
      }
      await clearFailures(db, attempt);

      // The session making the change stays signed in; every other one, app tokens included, ends.
      await setPassword(user.id, password, user.sessionId);
      return { message: 'Your password has been changed. Your other sessions have been signed out.' };
    },
  );

  app.post(
    '/user/reset_password/',
    { config: USER_ACTION, schema: { body: ResetPassword, response: { 200: MessageAnswer } } },
    async (request) => {
      const actor = request.user;
      const target = await targetOf(db, request.body.user_id, actor.id, 'reset the password of', (role) =>
        canManageUser(actor.role, role),
      );
      checkRule(request.body.new_password, target.username);
      await setPassword(target.id, request.body.new_password);
      // A user throttled by failed sign-ins is typically why a reset is asked for: let the new password in.
      await clearUserFailures(db, target.username);
      return {
        message: `Password of user ${target.username} reset successfully. Their sessions have been signed out.`,
      };
    },
  );
};
