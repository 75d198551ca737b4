// Sign-in and sessions (docs/sessions.md): user/login/, refresh/ and logout/ answer anyone (the XSRF
// check of app.ts still applies); is_LoggedIn/ and get_role/ are the signed-in user's.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearSessionCookies, setSessionCookies, setXsrfCookie } from '../auth/cookies';
import { revokeSession, rotateRefreshToken, sessionOfToken, startSession } from '../auth/sessions';
import { Credentials, signInUser } from '../auth/sign-in';
import { Unauthorized } from '../errors';
import { canUseWeb } from '../roles';
import { MessageAnswer } from '../schemas';
import type { ServerFeature } from '@veritas/shared/domain';

/** Public: they read only credentials or the session cookies. */
export const signInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.post(
    '/user/login/',
    {
      config: { errorField: 'res' },
      schema: {
        body: Credentials,
        response: { 200: Type.Object({ is_webview: Type.Boolean(), role: Type.String() }) },
      },
    },
    async (request, reply) => {
      const user = await signInUser(db, request.body, request.ip);
      if (!canUseWeb(user.role)) return { is_webview: false, role: user.role };

      setSessionCookies(request, reply, await startSession(db, user.id));
      setXsrfCookie(request, reply);
      return { is_webview: true, role: user.role };
    },
  );

  // No body: the refresh cookie is the only input.
  app.post('/user/refresh/', { schema: { response: { 200: MessageAnswer } } }, async (request, reply) => {
    const tokens = await rotateRefreshToken(db, request.cookies[REFRESH_COOKIE]);
    if (!tokens) {
      clearSessionCookies(reply);
      throw new Unauthorized('Session expired. Please sign in again.');
    }
    setSessionCookies(request, reply, tokens);
    return { message: 'Session refreshed' };
  });

  // No body: whichever session cookie is still there names the session to end.
  app.post('/user/logout/', { schema: { response: { 200: MessageAnswer } } }, async (request, reply) => {
    const sessionId =
      (await sessionOfToken(db, request.cookies[ACCESS_COOKIE])) ??
      (await sessionOfToken(db, request.cookies[REFRESH_COOKIE]));
    if (sessionId) await revokeSession(db, sessionId);
    clearSessionCookies(reply);
    return { message: 'Logged out' };
  });
};

/** For a signed-in scope (requireSession). */
export const sessionRoutes: FastifyPluginAsyncTypebox<{ features: readonly ServerFeature[] }> = async (
  app,
  { features },
) => {
  // Also how the console receives its XSRF cookie before signing in: a GET answered 401 carries it.
  app.get(
    '/user/is_LoggedIn/',
    { schema: { response: { 200: Type.Object({ is_logged_in: Type.Literal(true) }) } } },
    async () => ({
      is_logged_in: true as const,
    }),
  );

  app.get(
    '/user/get_role/',
    {
      schema: {
        response: {
          200: Type.Object({
            user: Type.String(),
            role: Type.String(),
            hub_code: Type.Union([Type.String(), Type.Null()]),
            // Beyond the spec's answer: how the console learns which further calls it may use.
            features: Type.Array(Type.String()),
          }),
        },
      },
    },
    async (request) => {
      const { username, role, organization, groupCode } = request.user;
      return { user: username, role, hub_code: organization === 'hub' ? groupCode : null, features: [...features] };
    },
  );
};
