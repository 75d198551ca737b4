// helmet's security headers on every answer of a scope, its middleware built once. Not
// @fastify/helmet: that plugin builds helmet's middleware anew for each request (its
// Content-Security-Policy parsed every time, some 20 µs of a small call's CPU), for per-route
// options and CSP nonces the console does not use. A directive that changes while the server runs
// (the registry's allowed origins) is a function, which helmet calls for each answer.
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export function addSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const setHeaders = helmet(options);
  // helmet's middleware calls on with no error: a bad option throws when it is built, above.
  app.addHook('onRequest', (request, reply, done) => setHeaders(request.raw, reply.raw, () => done()));
}
