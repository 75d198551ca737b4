// How the console's files go out: their content types, the encoding a request takes, and the
// shell's own build (shell/dist) answered from memory. A remote's files come from the registry
// (remote-routes.ts); the shell's are its build, fixed for the life of the server, which reads them
// once (scripts/serve.mjs).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Negotiator } from '@fastify/accept-negotiator';

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  wasm: 'application/wasm',
};

export const contentTypeOf = (file: string) =>
  CONTENT_TYPES[/\.([a-z0-9]+)$/i.exec(file)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** A file named by its content: cached for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

// No cache of answers by header: a client could fill it with headers of its own.
const takesGzip = new Negotiator({ supportedValues: ['gzip'] });

/** Whether the request's Accept-Encoding takes gzip (named, or `*`, with a q above 0). */
export const acceptsGzip = (request: FastifyRequest) =>
  takesGzip.negotiate(request.headers['accept-encoding'] ?? '') !== null;

/**
 * A file named by its content (webpack.factory.cjs names the shell's scripts `[name].[contenthash:8]`,
 * and their licence files after them): cached for good. Any other (index.html, the manifests, the
 * icon, page-load.json) keeps its name as its content changes, so it is revalidated on every use.
 */
const NAMED_BY_CONTENT = /\.[0-9a-f]{8}\./;

/** A file of the shell's build, as it goes out: as built, and as its build compressed it. */
interface ShellFile {
  type: string;
  cacheControl: string;
  etag: string;
  identity: Buffer;
  encoded: { br?: Buffer; gzip?: Buffer };
  /** Picks among the encodings the build wrote (brotli first): it leaves out a file too small to gain. */
  encodings: Negotiator<'br' | 'gzip'>;
}

/**
 * A route of a page load's files (the shell's, the remotes'): out of the request log, which keeps
 * warnings and errors. Its two lines per request cost as much CPU as the answer of a file from
 * memory, and a page load after a deploy asks for some twenty files (docs/operations.md#logs).
 */
export const QUIET_FILE_ROUTE = { logLevel: 'warn' } as const;

/**
 * The shell's build in `dir`, read once: each file by its URL path, with the `.br` and `.gz` files
 * its build wrote beside it (webpack.factory.cjs), which are not served under names of their own.
 */
export function readShellFiles(dir: string): Map<string, ShellFile> {
  const files = new Map<string, ShellFile>();
  const names = fs.readdirSync(dir, { recursive: true, withFileTypes: true });
  for (const entry of names) {
    if (!entry.isFile() || /\.(br|gz)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const sibling = (suffix: string) => (fs.existsSync(file + suffix) ? fs.readFileSync(file + suffix) : undefined);
    const identity = fs.readFileSync(file);
    const encoded = { br: sibling('.br'), gzip: sibling('.gz') };
    files.set(`/${path.relative(dir, file).split(path.sep).join('/')}`, {
      type: contentTypeOf(entry.name),
      cacheControl: NAMED_BY_CONTENT.test(entry.name) ? IMMUTABLE : 'no-cache',
      etag: `"${crypto.createHash('sha256').update(identity).digest('base64url')}"`,
      identity,
      encoded,
      encodings: new Negotiator<'br' | 'gzip'>({
        supportedValues: (['br', 'gzip'] as const).filter((name) => encoded[name]),
      }),
    });
  }
  return files;
}

/**
 * A GET (and HEAD) route for each of the shell's `files` in `scope`: brotli or gzip as its build
 * compressed it when the request takes them, else as built; a revalidation whose ETag still
 * matches answers 304. From memory rather than from the disk (as @fastify/static would, with a
 * stat, an open, reads and a close per request): the page load of every console fetches some twenty
 * of these, and a cold one cost the server three times the CPU per file (docs/benchmarks.md).
 */
export function shellFileRoutes(scope: FastifyInstance, files: Map<string, ShellFile>): void {
  for (const [url, file] of files) {
    scope.get(url, QUIET_FILE_ROUTE, async (request, reply) => {
      reply
        .header('cache-control', file.cacheControl)
        .header('vary', 'Accept-Encoding')
        .header('etag', file.etag)
        .type(file.type);
      if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(file.etag)) return reply.code(304).send();
      const encoding = file.encodings.negotiate(request.headers['accept-encoding'] ?? '');
      if (encoding) return reply.header('content-encoding', encoding).send(file.encoded[encoding]);
      return reply.send(file.identity);
    });
  }
}
