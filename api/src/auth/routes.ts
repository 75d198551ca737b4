// Sign-in and sessions (docs/sessions.md): user/login/, refresh/ and logout/ answer anyone (the XSRF
// check of app.ts still applies); is_LoggedIn/ and get_role/ are the signed-in user's.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearSessionCookies, setSessionCookies, setXsrfCookie } from './cookies';
import { endSessionOfTokens, rotateRefreshToken, type SignInChannel } from './sessions';
import { signInToConsole } from './sign-in';
import { targetOfBodyField, type AuditedRoute } from '../audit/refusals';
import type { EventHub } from '../events/hub';
import { Unauthorized } from '../http-errors';
import {
  Credentials,
  LAST_EVENT_ID_MARK,
  LoggedInAnswer,
  LoginResponse,
  MAX_USERNAME_LENGTH,
  MessageAnswer,
  NoQuery,
  RoleResponse,
  type ServerFeature,
} from '@veritas/shared/domain';
import { RETRY_AFTER } from '../plugins/openapi';

const tags = ['sign-in'];

/**
 * Both sign-ins record their refusals (throttled, deactivated, no access), naming the username
 * tried and their channel, as their successes and failures do (docs/audit.md).
 */
export const signInAudit = (channel: SignInChannel): AuditedRoute => ({
  action: 'session.sign-in',
  target: targetOfBodyField('user', 'username', MAX_USERNAME_LENGTH),
  details: { channel },
});

/** Public: they read only credentials or the session cookies. */
export const signInRoutes: FastifyPluginAsyncTypebox<{ hub: EventHub | null }> = async (app, { hub }) => {
  const { db } = app;

  app.post(
    '/user/login/',
    {
      config: {
        errorField: 'res',
        audit: signInAudit('console'),
        answerHeaders: {
          200: {
            'set-cookie': 'The session cookies (httpOnly) and XSRF-TOKEN; none when is_webview is false.',
            [LAST_EVENT_ID_MARK]: 'The newest event id the server had read, with live events.',
          },
          429: { 'retry-after': RETRY_AFTER },
        },
      },
      schema: {
        tags,
        summary: 'Sign in to the console: sets the session cookies (roles without a console get is_webview false)',
        description: `With live events, the header ${LAST_EVENT_ID_MARK} names the newest event id the server had read: the session's event stream (api/events/) resumes after it.`,
        body: Credentials,
        response: { 200: LoginResponse },
      },
    },
    async (request, reply) => {
      const { role, tokens } = await signInToConsole(db, request.body, request.ip);
      if (!tokens) return { is_webview: false, role };

      setSessionCookies(request, reply, tokens);
      setXsrfCookie(request, reply);
      // docs/events.md#the-first-stream: every event up to it was committed before the pages this
      // sign-in opens first read, so the session's stream resumes after it and misses none.
      const mark = hub?.newestRead();
      if (mark !== undefined) reply.header(LAST_EVENT_ID_MARK, String(mark));
      return { is_webview: true, role };
    },
  );

  // No body: the refresh cookie is the only input.
  const refresh = {
    tags,
    summary: 'Renew the session cookies from the refresh cookie',
    response: { 200: MessageAnswer },
  };
  app.post('/user/refresh/', { schema: refresh }, async (request, reply) => {
    const tokens = await rotateRefreshToken(db, request.cookies[REFRESH_COOKIE], request.ip);
    if (!tokens) {
      clearSessionCookies(reply);
      throw new Unauthorized('Session expired. Please sign in again.');
    }
    setSessionCookies(request, reply, tokens);
    return { message: 'Session refreshed' };
  });

  // No body: whichever session cookie is still there names the session to end.
  const logout = { tags, summary: 'End the session and clear its cookies', response: { 200: MessageAnswer } };
  app.post('/user/logout/', { schema: logout }, async (request, reply) => {
    await endSessionOfTokens(db, request.cookies[ACCESS_COOKIE], request.cookies[REFRESH_COOKIE], request.ip);
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
    {
      schema: {
        tags,
        summary: 'Whether the access cookie is valid (a 401 also sets the XSRF cookie)',
        querystring: NoQuery,
        response: { 200: LoggedInAnswer },
      },
    },
    async () => ({
      is_logged_in: true as const,
    }),
  );

  app.get(
    '/user/get_role/',
    {
      // features, beyond the spec's answer: how the console learns which further calls it may use.
      schema: {
        tags,
        summary: "The signed-in user's name, role, hub and the server's features",
        querystring: NoQuery,
        response: { 200: RoleResponse },
      },
    },
    async (request) => {
      const { username, role, organization, groupCode } = request.user;
      return { user: username, role, hub_code: organization === 'hub' ? groupCode : null, features: [...features] };
    },
  );
};
