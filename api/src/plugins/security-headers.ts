// helmet's security headers on every answer of a scope, its middleware built once. Not
// @fastify/helmet: that plugin builds helmet's middleware anew for each request (its
// Content-Security-Policy parsed every time, some 20 µs of a small call's CPU), for per-route
// options and CSP nonces the console does not use. A directive that changes while the server runs
// (the registry's allowed origins) is a function, which helmet calls for each answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Sets the headers `options` make on an answer not yet sent. */
export function securityHeaders(
  options: Readonly<HelmetOptions>,
): (request: IncomingMessage, answer: ServerResponse) => void {
  const setHeaders = helmet(options);
  // helmet's middleware calls on with no error: a bad option throws when it is built, above.
  return (request, answer) => setHeaders(request, answer, () => undefined);
}

/**
 * The headers `options` make, as [name, value] pairs (for an answer made elsewhere, e.g. by a proxy).
 * `options` must hold no function: they are made once.
 */
export function securityHeaderPairs(options: Readonly<HelmetOptions>): [string, string][] {
  const pairs: [string, string][] = [];
  const collector = {
    setHeader(name: string, value: string) {
      pairs.push([name, value]);
    },
    removeHeader() {},
  };
  securityHeaders(options)({} as IncomingMessage, collector as unknown as ServerResponse);
  return pairs;
}

/** The same, as lines of an answer written to its socket by hand (Node's parser refusals, before any request exists). */
export function securityHeaderLines(options: Readonly<HelmetOptions>): string {
  return securityHeaderPairs(options)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}

export function addSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const setHeaders = securityHeaders(options);
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw);
    done();
  });
}
