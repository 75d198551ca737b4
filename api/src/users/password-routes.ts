// Passwords users can change (src/users/password-changes.ts): one's own from the console
// (user/change_password/), and another's by whoever may (de)activate them (user/reset_password/).
// Errors carry `error`, like the users' actions, throttling's 429 included.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChangePassword, MessageAnswer, ResetPassword } from '@veritas/shared/domain';
import { auditByOf } from '../audit/actor';
import { changePassword, resetPassword } from './password-changes';
import { USER_ACTION, auditedUserAction } from './routes';
import { RETRY_AFTER } from '../plugins/openapi';

const tags = ['users'];

export const passwordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.post(
    '/user/change_password/',
    {
      config: {
        ...USER_ACTION,
        answerHeaders: { 429: { 'retry-after': RETRY_AFTER } },
        audit: {
          action: 'password.changed',
          target: ({ user }) => (user ? { kind: 'user', id: user.id, label: user.username } : null),
        },
      },
      schema: {
        tags,
        summary: "Change one's own password; ends one's other sessions",
        body: ChangePassword,
        response: { 200: MessageAnswer },
      },
    },
    async (request) => {
      const { current_password: current, new_password: password } = request.body;
      await changePassword(db, request.user, request.ip, current, password);
      return { message: 'Your password has been changed. Your other sessions have been signed out.' };
    },
  );

  app.post(
    '/user/reset_password/',
    {
      config: auditedUserAction('password.reset'),
      schema: {
        tags,
        summary: "Set another user's password; ends all their sessions",
        body: ResetPassword,
        response: { 200: MessageAnswer },
      },
    },
    async (request) => {
      const { user_id: userId, new_password: password } = request.body;
      const username = await resetPassword(db, request.user, auditByOf(request), userId, password);
      return { message: `Password of user ${username} reset successfully. Their sessions have been signed out.` };
    },
  );
};
