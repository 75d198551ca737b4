// What the console's page loads from the registry, outside /veritas (src/registry/serving.ts,
// src/registry/composition.ts, docs/deploying-a-remote.md#what-the-console-loads): GET
// /remotes.json, the composition for the viewer, and the files of registry versions under
// /remotes/<remote>/<manifest key>/, immutable. Same origin as the console's page, whose document
// (src/registry/page-document.ts) carries the same composition.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import { REMOTE_NAME_PATTERN } from '@veritas/shared/domain';
import { API_SECURITY_HEADERS } from '../app';
import { ACCESS_COOKIE, cookieOf, viewerOf } from '../auth/cookies';
import { authenticate } from '../auth/sessions';
import type { Db } from '../db/schema';
import { errorHandler } from '../http-errors';
import { addSecurityHeaders } from '../plugins/security-headers';
import { compositionFor, type ComposedView, type CompositionSource } from './composition';
import { gunzipped, type RemoteFiles } from './serving';
import { acceptsGzip, contentTypeOf, IMMUTABLE, QUIET_FILE_ROUTE } from './static-files';

export interface RemoteServingOptions {
  db: Db;
  /** Where the composition comes from: the registry (its db), or a fixed list with the workspace's declarations. */
  source: CompositionSource;
  /** The registry versions' files, shared with the page document's preloads. */
  files: RemoteFiles;
}

/**
 * The composition for the viewer of `request`: the user of a valid access cookie (authenticated
 * as every API call is), else nobody; the canary share is the viewer cookie's, else the user's.
 */
export async function viewerComposition(
  db: Db,
  source: CompositionSource,
  request: FastifyRequest,
): Promise<ComposedView> {
  const user = await authenticate(db, cookieOf(request, ACCESS_COOKIE));
  const viewer = user ? { username: user.username, role: user.role } : null;
  return compositionFor(source, viewer, viewerOf(request) ?? user?.username);
}

const REMOTE_NAME = new RegExp(REMOTE_NAME_PATTERN);

export async function remoteServing(app: FastifyInstance, { db, source, files }: RemoteServingOptions) {
  addSecurityHeaders(app, API_SECURITY_HEADERS);
  await app.register(cookie);
  app.setErrorHandler(errorHandler);
  const notFound = { detail: 'Not found' };

  app.get('/remotes.json', async (request, reply) => {
    // Each viewer may get another answer (their role, a canary), and a rollout changes it at any moment.
    reply.header('cache-control', 'private, no-cache').header('vary', 'Cookie');
    return (await viewerComposition(db, source, request)).composition;
  });

  app.get<{ Params: { remote: string; key: string; '*': string } }>(
    '/remotes/:remote/:key/*',
    QUIET_FILE_ROUTE,
    async (request, reply) => {
      const { remote, key, '*': path } = request.params;
      const file = REMOTE_NAME.test(remote) ? await files.file(remote, key, path) : null;
      if (!file) return reply.code(404).send(notFound);
      reply.header('cache-control', IMMUTABLE).header('vary', 'Accept-Encoding').type(contentTypeOf(path));
      if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(file.gzip);
      return reply.send(await gunzipped(file));
    },
  );
  // Anything else under /remotes/ (a remote's folder, a build without its file) is no file of a
  // version: a 404 with the files' headers, never the console's page document.
  app.get('/remotes/*', QUIET_FILE_ROUTE, async (_request, reply) => reply.code(404).send(notFound));
}
