// Who is calling. Each protected scope of app.ts adds one hook: requireSession (the console's
// access cookie) or requireAppToken (the mobile app's bearer token); either sets request.user or
// answers 401. requireRole is what a route allows beyond being signed in (auth/rights.ts and
// @veritas/shared), answering 403.
//
// They are preValidation hooks: Fastify has parsed the body by then, so a body it cannot parse is
// answered 400 whoever sends it, and the schema is checked after them, so a caller without the
// right learns nothing about its input (401, then 403, then 400).
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '@veritas/shared/domain';
import { accessTokenSecretOf, checkAccessToken, type TokenCaller } from '../access-tokens/access-tokens';
import { ACCESS_COOKIE } from '../auth/cookies';
import { authenticate, type SessionUser } from '../auth/sessions';
import { Forbidden, NO_SESSION, Unauthorized } from '../http-errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller; set by the hook of a protected scope, so only routes under one may read it. */
    user: SessionUser;
    /** The access token the caller authenticated with (a deploy token, an API key), else null. */
    accessToken: TokenCaller | null;
  }
}

export const authentication = fp(
  async (app) => {
    app.decorateRequest('user');
    app.decorateRequest('accessToken', null);
  },
  { name: 'authentication', dependencies: ['database'] },
);

/**
 * The console: the user behind the access cookie. A call that carries an access token (an API key,
 * a deploy token) is no session whatever cookies come with it, a GET as a POST (docs/sessions.md).
 */
export async function requireSession(this: FastifyInstance, request: FastifyRequest): Promise<void> {
  if (accessTokenSecretOf(request) !== undefined) throw new Unauthorized(NO_SESSION);
  const user = await authenticate(this.db, request.cookies[ACCESS_COOKIE]);
  if (!user) throw new Unauthorized(NO_SESSION);
  request.user = user;
}

/** The mobile app: the user behind `Authorization: Bearer <token>`, never a cookie. */
export async function requireAppToken(this: FastifyInstance, request: FastifyRequest): Promise<void> {
  const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const user = await authenticate(this.db, token, 'app');
  if (!user) throw new Unauthorized('Sign in with the app first: the token is missing, expired or revoked.');
  request.user = user;
}

/**
 * The remote registry: a deploy token (`Authorization: Bearer vrt_…`, the cookies then ignored,
 * which is why app.ts's XSRF check lets such a call by), else the console's session.
 */
export async function requireSessionOrDeployToken(this: FastifyInstance, request: FastifyRequest): Promise<void> {
  const secret = accessTokenSecretOf(request);
  if (secret === undefined) return requireSession.call(this, request);
  const check = await checkAccessToken(this.db, secret);
  if (!check.ok) throw new Unauthorized('The deploy token is unknown, expired or revoked.');
  request.accessToken = check.token;
}

/** A route's own rule: 403 with `refusal` unless the caller's role is `allowed`. */
export function requireRole(allowed: (role: Role) => boolean, refusal: string) {
  return async function checkRole(request: FastifyRequest): Promise<void> {
    if (!allowed(request.user.role)) throw new Forbidden(refusal);
  };
}
