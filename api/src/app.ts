// The /veritas API as one Fastify plugin: security headers, cookies, request-forgery check,
// compression, the request schemas' validator, uniform error bodies, and the routes in five
// scopes by who may call them: anyone (sign-in), a console session, the remote registry (a
// session or a deploy token), an API key (/veritas/api/v1/), a mobile-app token.
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import { recordRefusals } from './audit/refusals';
import { xsrfGuard } from './auth/cookies';
import type { Db } from './db/schema';
import { errorHandler } from './http-errors';
import type { EventHub } from './events/hub';
import { eventRoutes } from './events/routes';
import { authentication, requireAppToken, requireSession, requireSessionOrDeployToken } from './plugins/authentication';
import { dashboardRoutes } from './dashboard/routes';
import { database } from './plugins/database';
import { addSecurityHeaders } from './plugins/security-headers';
import { documentAccess, openApi } from './plugins/openapi';
import { apkRoutes } from './mobile-app/apk-routes';
import { auditRoutes } from './audit/routes';
import { caseRoutes } from './cases/routes';
import type { CaseJobRunner } from './cases/jobs';
import { appCasePhotoRoutes, casePhotoRoutes } from './cases/photo-routes';
import { appRoutes, appSignInRoutes } from './mobile-app/routes';
import { deviceRoutes } from './devices/routes';
import { sessionRoutes, signInRoutes } from './auth/routes';
import { excludeListRoutes } from './exclude-list/routes';
import { healthRoutes } from './health/routes';
import { DEFAULT_API_KEY_RATE, requireApiKey } from './integrations/api-keys';
import { integrationRoutes } from './integrations/routes';
import { apiV1Routes } from './integrations/v1-routes';
import { webhookRoutes, type WebhookRoutesOptions } from './webhooks/routes';
import { apiV1ShipmentRoutes } from './integrations/shipment-routes';
import { groupsRoutes } from './groups/routes';
import { passwordRoutes } from './users/password-routes';
import { registryRoutes } from './registry/routes';
import { reportRoutes } from './report/routes';
import { statusRoutes } from './devices/status-routes';
import { uploadRoutes } from './upload/routes';
import { usersRoutes } from './users/routes';
import { whitelabelRoutes } from './whitelabel/routes';
import { registryConfig, type RegistryConfig } from './registry/versions';
import { validatorCompiler } from './schemas';
import { SERVER_FEATURES, type ServerFeature } from '@veritas/shared/domain';

export interface ApiOptions {
  db: Db;
  /** The mobile app package file, when one is configured. */
  apkPath?: string;
  /** Calls beyond the spec's that this server offers and announces in user/get_role/; default all. */
  features?: readonly ServerFeature[];
  /** The clock api/dashboard/ reads "today" from; default the system's. */
  clock?: () => Date;
  /** The remote registry's configuration: the console's shared packages, the fetch of external builds, versions kept. */
  registry?: Partial<RegistryConfig>;
  /**
   * The server's event hub (docs/events.md#fan-out), which api/events/ streams from: needed with
   * 'live-events'. A job of the server's (jobs.ts), started and stopped by createServer.
   */
  hub: EventHub | null;
  /** The bulk jobs' runner of this instance (src/cases/jobs.ts), started at once when a job is created. */
  caseJobs?: CaseJobRunner | null;
  /** Calls per minute each API key may make (docs/integrations.md#rate-limit); default DEFAULT_API_KEY_RATE. */
  apiKeyRate?: number;
  /** The webhooks' calls: whether local receivers are allowed, and the dispatcher to wake (none: every instance's poll). */
  webhooks?: WebhookRoutesOptions;
}

const systemClock = () => new Date();

/**
 * helmet's options for the API, and for the registry's files (routes/remotes.ts): answers are JSON
 * and files, never pages: nothing in an answer may load, run or be framed.
 */
export const API_SECURITY_HEADERS = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
} as const;

export async function api(
  app: FastifyInstance,
  {
    db,
    apkPath,
    features = SERVER_FEATURES,
    clock = systemClock,
    registry,
    hub,
    caseJobs = null,
    apiKeyRate = DEFAULT_API_KEY_RATE,
    webhooks = { allowLocal: false, dispatcher: null },
  }: ApiOptions,
) {
  if (features.includes('live-events') && !hub) throw new Error("The feature 'live-events' needs the event hub.");
  addSecurityHeaders(app, API_SECURITY_HEADERS);
  await app.register(cookie);
  // get_status streams tens of MB of JSON. Measured by bench/get-status.ts: gzip level 1 with
  // 128 KiB chunks keeps up with the database (which shares the CPU with the browser on small
  // machines) and still shrinks it about tenfold; brotli at a comparable speed (quality 3)
  // compresses no better, so gzip is preferred when both are accepted.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['gzip', 'br', 'deflate', 'identity'],
    zlibOptions: { level: 1, chunkSize: 128 * 1024 },
    brotliOptions: {
      chunkSize: 128 * 1024,
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 3,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    },
  });
  app.addHook('onRequest', xsrfGuard);
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found' }));
  recordRefusals(app, db);

  // The OpenAPI 3.1 document of every route registered after this (GET openapi.json), and its
  // reference page (docs/).
  await openApi(app);
  documentAccess(app, 'public');

  await app.register(database, { db });
  await app.register(authentication);

  // Anyone: liveness and readiness, sign-in and the session cookies' own calls.
  await app.register(healthRoutes);
  await app.register(signInRoutes, { hub });
  await app.register(appSignInRoutes);

  // The console's signed-in user (access cookie).
  await app.register(async (signedIn) => {
    signedIn.addHook('preValidation', requireSession);
    documentAccess(signedIn, 'session');
    await signedIn.register(sessionRoutes, { features });
    await signedIn.register(usersRoutes);
    await signedIn.register(groupsRoutes);
    await signedIn.register(passwordRoutes);
    await signedIn.register(apkRoutes, { apkPath });
    await signedIn.register(statusRoutes);
    // Server features (docs/architecture.md#server-features): offered only when announced.
    if (features.includes('device-pages')) await signedIn.register(deviceRoutes);
    await signedIn.register(uploadRoutes);
    await signedIn.register(whitelabelRoutes);
    await signedIn.register(reportRoutes);
    await signedIn.register(excludeListRoutes);
    await signedIn.register(auditRoutes);
    await signedIn.register(caseRoutes, { jobs: caseJobs });
    await signedIn.register(casePhotoRoutes);
    await signedIn.register(integrationRoutes);
    await signedIn.register(webhookRoutes, webhooks);
    if (features.includes('dashboard-figures')) await signedIn.register(dashboardRoutes, { clock });
    if (features.includes('live-events')) await signedIn.register(eventRoutes, { hub: hub! });
  });

  // The remote registry: a pipeline's deploy token or the console's session.
  await app.register(async (deploying) => {
    deploying.addHook('preValidation', requireSessionOrDeployToken);
    await deploying.register(registryRoutes, { config: registryConfig(registry) });
  });

  // The order systems' API (an API key of the route's scope).
  await app.register(async (integration) => {
    integration.addHook('preValidation', requireApiKey(apiKeyRate));
    documentAccess(integration, 'api-key');
    await integration.register(apiV1Routes);
    await integration.register(apiV1ShipmentRoutes);
  });

  // Field staff's mobile app (bearer token).
  await app.register(async (mobile) => {
    mobile.addHook('preValidation', requireAppToken);
    documentAccess(mobile, 'app');
    await mobile.register(appRoutes);
    await mobile.register(appCasePhotoRoutes);
  });
}
