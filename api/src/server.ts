// createServer: the API ready to listen, over the configured database.
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { API_PREFIX, RemoteDeclaration, SERVER_FEATURES } from '@veritas/shared/domain';
import { api, API_SECURITY_HEADERS } from './app';
import { securityHeaderLines, securityHeaders } from './plugins/security-headers';
import { ensureAdmin } from './users/first-admin';
import {
  clientErrors,
  errorHandler,
  hostRequired,
  InstanceStopping,
  routerRefusals,
  unmetExpectations,
} from './http-errors';
import { auditPruning, retentionDaysFrom } from './audit/retention';
import { sqliteCheckpoints } from './db/checkpoints';
import { DEFAULT_DATABASE_WAIT_SECONDS, waitForDatabase } from './db/availability';
import { StartRefused, wholeNumberFrom } from './start-refused';
import { closeDatabase, dataDirFrom, migrateToLatest, openDatabase } from './db/connection';
import type { Db } from './db/schema';
import { prepareSearch } from './devices/pick-list';
import { scheduleSearchIndexing } from './devices/search-index';
import { EventHub } from './events/hub';
import { runJobs } from './jobs';
import { CaseJobRunner } from './cases/jobs';
import { FAILING_DISABLE_MS, RETRY_SCHEDULE_MS } from './webhooks/deliveries';
import { WEBHOOK_TIMEOUT_MS, WebhookDispatcher, type DispatchPolicy } from './webhooks/dispatcher';
import type { ComposedView, CompositionSource } from './registry/composition';
import { cachedAllowedOrigins } from './registry/origins';
import { checkShellDocument, inlineComposition, pageStatus } from './registry/page-document';
import { pagePreloads } from './registry/preloads';
import { publishBuilt } from './registry/publish-built';
import { RemoteFiles } from './registry/serving';
import { registryConfig } from './registry/versions';
import { remoteServing, viewerComposition } from './registry/remote-routes';
import { UploadSweeper } from './upload/sweeper';

export interface ServerOptions {
  /** Folder of the embedded database. Env VERITAS_DATA_DIR, default ./.veritas-data. */
  dataDir?: string;
  /** postgres://… to use PostgreSQL instead of the embedded database. Env DATABASE_URL. */
  databaseUrl?: string;
  /**
   * How long a start waits for a PostgreSQL it cannot reach, in seconds, trying again every 1–2 s
   * (docs/operations.md#starting). Env DATABASE_WAIT_SECONDS, default 180; 0 tries once.
   */
  databaseWaitSeconds?: number;
  /**
   * Run once the database is migrated and the admin exists, before any route is registered: the
   * demo data of `pnpm start` (api/seed/, loaded by scripts/serve.mjs when VERITAS_DEMO is on).
   */
  seed?: (db: Db) => Promise<void>;
  /** The super_admin created at start if missing. Env VERITAS_ADMIN_USERNAME, default admin. */
  adminUsername?: string;
  /** Env VERITAS_ADMIN_PASSWORD; without it a random password is generated and printed. */
  adminPassword?: string;
  logger?: boolean;
  /** The mobile app package served by user/download_apk/. Env VERITAS_APK_PATH; unset, that route answers 404. */
  apkPath?: string;
  /**
   * Offer only the spec's calls: no server-side pick list pages or dashboard figures, so the
   * console falls back to api/get_status/. Env VERITAS_SPEC_ONLY (anything but '0' turns it on).
   */
  specOnly?: boolean;
  /** The clock api/dashboard/ reads "today" from (tests set the day they need); default the system's. */
  clock?: () => Date;
  /**
   * The reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (Fastify's
   * trustProxy), e.g. '127.0.0.1' or 'loopback' for a local proxy. Env VERITAS_TRUST_PROXY; unset,
   * none: request.ip is the socket's address, which behind a proxy is the proxy's, so sign-in
   * throttling (keyed on request.ip) would count every client as one.
   */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /**
   * The shared packages the console's shell provides its remotes, with their versions (sharedOf of
   * shell/dist/mf-manifest.json, which scripts/serve.mjs passes). Without it the registry cannot
   * check a version, and refuses to publish, promote or start a canary (409).
   */
  consoleShared?: Record<string, string>;
  /** How the registry fetches an external build's manifest and entry script; default the global fetch. */
  registryFetch?: typeof fetch;
  /** How many versions of each remote the registry keeps (besides live, canary, previous). Env VERITAS_REGISTRY_KEEP, default 10. */
  registryKeep?: number;
  /**
   * Remote name → URL of its mf-manifest.json (REMOTES_JSON): the composition (/remotes.json, the
   * page document) is made of these and `staticDeclarations` rather than the registry's versions.
   */
  staticRemotes?: Record<string, string>;
  /**
   * With `staticRemotes`: what those remotes declare (the workspace's remote.json files, as
   * scripts/workspace-remotes.cjs reads them); a remote without one adds no page.
   */
  staticDeclarations?: readonly RemoteDeclaration[];
  /**
   * The shell's index.html, as text (read once at start by scripts/serve.mjs): `pageDocument`
   * answers it with the viewer's composition inlined.
   */
  shellDocument?: string;
  /**
   * The paths of the shell's scripts a signed-in page load fetches after its entry (its
   * page-load.json, read by scripts/serve.mjs): the page document preloads them.
   */
  shellScripts?: readonly string[];
  /**
   * Remote name → its built dist folder: published at start and made live while the remote has no
   * live version or one published so (src/registry/publish-built.ts, `pnpm start`).
   */
  publishBuilt?: Record<string, string>;
  /**
   * false writes no audit entry. Only the benchmarks that measure what the trail costs pass it
   * (bench/upload.ts, bench/simulator.ts); no environment variable turns the trail off.
   */
  auditTrail?: boolean;
  /**
   * false opens no case on a flagging scan (src/cases/opening.ts). Only the benchmarks that measure
   * what opening cases costs pass it (bench/simulator.ts, bench/upload.ts with BENCH_CASE_PAIRS).
   */
  caseOpening?: boolean;
  /** How many days audit entries are kept (docs/audit.md#retention). Env VERITAS_AUDIT_RETENTION_DAYS, default 400. */
  auditRetentionDays?: number;
  /** Calls per minute each API key may make (docs/integrations.md#rate-limit). Env VERITAS_API_KEY_RATE, default 600. */
  apiKeyRate?: number;
  /**
   * Webhooks may go to http:// and to addresses outside the public internet (loopback, private,
   * link-local): local receivers and tests (docs/webhooks.md#safety). Env VERITAS_WEBHOOKS_ALLOW_LOCAL=1.
   */
  webhooksAllowLocal?: boolean;
  /** What tests change of the webhooks' delivery: the attempt's timeout, the retry schedule, how long failing disables. */
  webhookDelivery?: Partial<Pick<DispatchPolicy, 'timeoutMs' | 'scheduleMs' | 'failingDisableMs'>>;
}

export interface VeritasServer {
  app: FastifyInstance;
  close(): Promise<void>;
  registry: {
    /** The origins external builds may be served from, for the console page's Content-Security-Policy (cached ≈5 s). */
    allowedOrigins(): Promise<string[]>;
  };
  /**
   * Answers a page path (GET or HEAD) with the page document: the shell's index.html
   * (`shellDocument`) with the composition of the request's viewer inlined, its status (403, 404)
   * and headers (per viewer, never cached as is). Throws without `shellDocument`.
   */
  sendPageDocument(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

const nonEmpty = (value: string | undefined) => (value ? value : undefined);

function resolve(options: ServerOptions, env: NodeJS.ProcessEnv) {
  const apkPath = nonEmpty(options.apkPath) ?? nonEmpty(env.VERITAS_APK_PATH);
  return {
    dataDir: dataDirFrom(options.dataDir ?? nonEmpty(env.VERITAS_DATA_DIR)),
    databaseUrl: options.databaseUrl ?? nonEmpty(env.DATABASE_URL),
    databaseWaitSeconds:
      options.databaseWaitSeconds ??
      wholeNumberFrom(env, 'DATABASE_WAIT_SECONDS', 0, ' of seconds') ??
      DEFAULT_DATABASE_WAIT_SECONDS,
    adminUsername: options.adminUsername ?? nonEmpty(env.VERITAS_ADMIN_USERNAME) ?? 'admin',
    adminPassword: options.adminPassword ?? nonEmpty(env.VERITAS_ADMIN_PASSWORD),
    logger: options.logger ?? true,
    apkPath: apkPath === undefined ? undefined : path.resolve(process.cwd(), apkPath),
    specOnly: options.specOnly ?? (nonEmpty(env.VERITAS_SPEC_ONLY) !== undefined && env.VERITAS_SPEC_ONLY !== '0'),
    trustProxy: options.trustProxy ?? nonEmpty(env.VERITAS_TRUST_PROXY) ?? false,
    registryKeep: options.registryKeep ?? wholeNumberFrom(env, 'VERITAS_REGISTRY_KEEP', 1),
    auditRetentionDays: options.auditRetentionDays ?? retentionDaysFrom(env),
    apiKeyRate: options.apiKeyRate ?? wholeNumberFrom(env, 'VERITAS_API_KEY_RATE', 1),
    webhooksAllowLocal:
      options.webhooksAllowLocal ??
      (nonEmpty(env.VERITAS_WEBHOOKS_ALLOW_LOCAL) !== undefined && env.VERITAS_WEBHOOKS_ALLOW_LOCAL !== '0'),
  };
}

/**
 * How a closing server answers (docs/operations.md#stopping). A request arriving on a connection
 * already open is answered 503 with the API's body and Retry-After (Fastify's own 503, turned off
 * by `return503OnClosing: false`, has neither), with the API's security headers, set here as the
 * hook runs before any scope's. Fastify's close ends idle keep-alive connections at once, but one
 * whose request is under way stays open after its answer until keepAliveTimeout (72 s), holding up
 * the stop: while closing, answers say Connection: close, and a connection whose answer began
 * before is closed once idle.
 */
function closeGracefully(
  app: FastifyInstance,
  setApiHeaders: (request: IncomingMessage, answer: ServerResponse) => void,
): void {
  let closing = false;
  // The root's first preClose hook: run as Fastify starts closing, before any connection is ended.
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    setApiHeaders(request.raw, reply.raw);
    return errorHandler(new InstanceStopping(), request, reply);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async () => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });
}

/**
 * The path and query a request line names. HTTP/1.1 lets it name the whole URL ('GET
 * http://host/path', the absolute form proxies send); routed as it is, whatever builds an answer
 * from the request's URL (a redirect's Location) would carry a host the request chose, where no
 * request header may change an answer (README's registry rule, docs/sessions.md).
 */
function pathOfRequestLine(request: { url?: string }): string {
  const url = request.url ?? '/';
  if (url.startsWith('/')) return url;
  try {
    const { pathname, search } = new URL(url);
    return pathname + search;
  } catch {
    return url;
  }
}

/**
 * Opens the database, applies migrations, creates the admin and runs `seed` (if given), and
 * returns the app with every route under /veritas registered but not yet listening, so the
 * caller can add routes (e.g. the console's static files) before app.listen().
 */
export async function createServer(options: ServerOptions = {}): Promise<VeritasServer> {
  const config = resolve(options, process.env);
  const { shellDocument } = options;
  if (shellDocument !== undefined) checkShellDocument(shellDocument);
  const staticDeclarations = [...(options.staticDeclarations ?? [])];
  const checkDeclaration = TypeCompiler.Compile(RemoteDeclaration);
  for (const declaration of staticDeclarations) {
    const error = checkDeclaration.Errors(declaration).First();
    if (error)
      throw new StartRefused(`The declaration of a remote is not one: at ${error.path || '/'}, ${error.message}`);
  }
  const registry = registryConfig({
    consoleShared: options.consoleShared,
    fetch: options.registryFetch,
    keep: config.registryKeep,
  });
  const db = openDatabase(config);
  if (options.auditTrail === false) db.auditTrail = false;
  if (options.caseOpening === false) db.caseOpening = false;
  try {
    // A PostgreSQL not reachable yet is waited for, one line each try (SQLite's file is opened or not).
    await waitForDatabase(() => migrateToLatest(db), {
      limitSeconds: config.databaseWaitSeconds,
      log: (line) => console.error(line),
    });
    await ensureAdmin(db, config.adminUsername, config.adminPassword);
    // Records a stopped server had not yet added to the search table.
    scheduleSearchIndexing(db);
    prepareSearch(db);
    await options.seed?.(db);
    if (options.publishBuilt) await publishBuilt(db, registry, options.publishBuilt);
  } catch (error) {
    await closeDatabase(db);
    throw error;
  }

  // The API's security headers on what is refused before any scope's hooks have the request.
  const setApiHeaders = securityHeaders(API_SECURITY_HEADERS);
  const app = Fastify({
    rewriteUrl: pathOfRequestLine,
    logger: config.logger,
    trustProxy: config.trustProxy,
    // What Node would refuse itself, with no body nor security headers, is refused by the app.
    http: { requireHostHeader: false },
    clientErrorHandler: clientErrors(securityHeaderLines(API_SECURITY_HEADERS)),
    frameworkErrors: routerRefusals(setApiHeaders),
    // A closing server's 503 is closeGracefully's, in the API's body with Retry-After.
    return503OnClosing: false,
  });
  app.addHook('onRequest', hostRequired(setApiHeaders));
  app.server.on('checkExpectation', unmetExpectations(setApiHeaders));
  const features = config.specOnly ? [] : SERVER_FEATURES;
  // One hub per server: it fans the events out to every stream of this instance (docs/events.md#fan-out).
  const hub = features.includes('live-events') ? new EventHub(db, app.log) : null;
  const caseJobs = new CaseJobRunner(db, app.log);
  const webhooks = new WebhookDispatcher(
    db,
    {
      allowLocal: config.webhooksAllowLocal,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      scheduleMs: RETRY_SCHEDULE_MS,
      failingDisableMs: FAILING_DISABLE_MS,
      ...options.webhookDelivery,
    },
    app.log,
    hub,
  );
  // The server's background jobs (docs/operations.md#background-jobs), then the database's close.
  runJobs(
    app,
    [
      // SQLite: the WAL copied into the database file on a thread of its own.
      sqliteCheckpoints(db),
      // Not awaited at start: the first sweep may ingest a large upload while the server serves.
      new UploadSweeper(db, app.log),
      auditPruning(db, config.auditRetentionDays, app.log),
      // Bulk jobs on cases, resumed by whichever instance finds their lease run out.
      caseJobs,
      ...(hub ? [hub] : []),
      // Webhooks: the events fanned out to the endpoints, and the deliveries due (any instance's).
      webhooks,
    ],
    () => closeDatabase(db),
  );
  closeGracefully(app, setApiHeaders);
  await app.register(api, {
    prefix: API_PREFIX,
    db,
    apkPath: config.apkPath,
    features,
    clock: options.clock,
    registry,
    hub,
    caseJobs,
    apiKeyRate: config.apiKeyRate,
    webhooks: { allowLocal: config.webhooksAllowLocal, dispatcher: webhooks },
  });
  // The console's page loads the remotes from its own origin: outside /veritas.
  const source: CompositionSource = options.staticRemotes
    ? { staticRemotes: options.staticRemotes, staticDeclarations, features }
    : { db, features };
  const files = new RemoteFiles(db);
  await app.register(remoteServing, { db, source, files });
  return {
    app,
    close: () => app.close(),
    registry: { allowedOrigins: cachedAllowedOrigins(db) },
    async sendPageDocument(request, reply) {
      if (shellDocument === undefined)
        throw new Error('createServer was given no shellDocument: it has no page document.');
      const pathname = request.url.split('?')[0] ?? '/';
      let view: ComposedView;
      let status: 200 | 403 | 404;
      let preloads = '';
      try {
        view = await viewerComposition(db, source, request);
        status = pageStatus(pathname, view);
        // A page it opens: the browser fetches the shell's and the page's code at once.
        if (status === 200)
          preloads = await pagePreloads(files, view.composition, pathname, options.shellScripts ?? []);
      } catch (error) {
        // Outside the API's scope: its one error handler answers (503 with Retry-After while the
        // database is away), never the console scope's bare 500.
        return errorHandler(error, request, reply);
      }
      return reply
        .code(status)
        .header('Cache-Control', 'no-cache, private')
        .header('Vary', 'Cookie')
        .type('text/html; charset=utf-8')
        .send(inlineComposition(shellDocument, view.composition, preloads, hub?.newestRead()));
    },
  };
}

export { migrateToLatest, openDatabase } from './db/connection';
export { reportStartFailure } from './start-refused';
export { sharedOf } from '@veritas/shared/domain';
export { readShellFiles, shellFileRoutes } from './registry/static-files';
export { addSecurityHeaders, securityHeaderPairs } from './plugins/security-headers';
export { API_SECURITY_HEADERS } from './app';
// The largest body a call takes (a shipment's, docs/integrations.md#shipments-in): what a proxy in
// front of the instances must let through, so that each call refuses a body with its own answer.
export { MAX_BODY_BYTES as LARGEST_BODY_BYTES } from './integrations/shipment-body';
