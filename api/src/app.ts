// The /veritas API as one Fastify plugin: security headers, cookies, request-forgery check,
// compression, uniform error bodies and the routes.
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import { xsrfGuard } from './auth/cookies';
import type { Db } from './db/schema';
import { HttpError } from './http';
import { appRoutes } from './routes/app';
import { excludeListRoutes } from './routes/excludeList';
import { passwordRoutes } from './routes/passwords';
import { reportRoutes } from './routes/report';
import { statusRoutes } from './routes/status';
import { uploadRoutes } from './routes/upload';
import { userRoutes } from './routes/user';
import { whitelabelRoutes } from './routes/whitelabel';

export interface ApiOptions {
  db: Db;
  /** The mobile app package file, when one is configured. */
  apkPath?: string;
}

export async function api(app: FastifyInstance, { db, apkPath }: ApiOptions) {
  // The API answers JSON and files, never pages: nothing in an answer may load, run or be framed.
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  await app.register(cookie);
  // get_status streams ~60 MB of JSON for 100k records. Measured here (bench/get-status.ts):
  // gzip level 1 with 128 KiB chunks keeps up with the database (which shares the CPU with the
  // browser on small machines) and still shrinks it ~10x; brotli at a comparable speed
  // (quality 3) compresses no better, so gzip is preferred when both are accepted.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['gzip', 'br', 'deflate', 'identity'],
    zlibOptions: { level: 1, chunkSize: 128 * 1024 },
    brotliOptions: {
      chunkSize: 128 * 1024,
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
    },
  });
  app.addHook('onRequest', xsrfGuard);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError) return reply.code(error.statusCode).headers(error.headers).send(error.body);
    const statusCode = (error as { statusCode?: number }).statusCode ?? 500;
    if (statusCode >= 500) {
      request.log.error(error);
      return reply.code(500).send({ detail: 'Internal server error', error: 'Internal server error' });
    }
    // Fastify's own client errors (malformed JSON, body too large...).
    const message = error instanceof Error ? error.message : String(error);
    return reply.code(statusCode).send({ detail: message, error: message });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found' }));

  await app.register(userRoutes, { db, apkPath });
  await app.register(passwordRoutes, { db });
  await app.register(statusRoutes, { db });
  await app.register(uploadRoutes, { db });
  await app.register(whitelabelRoutes, { db });
  await app.register(reportRoutes, { db });
  await app.register(excludeListRoutes, { db });
  await app.register(appRoutes, { db });
}
