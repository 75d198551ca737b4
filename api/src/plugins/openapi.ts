// The OpenAPI 3.1 document of every route (GET openapi.json) and its reference page (docs/), made
// by @fastify/swagger from the routes' schemas (@veritas/shared/domain). The document adds what a
// route's schema does not say: who may call it (security, set per scope by documentAccess), the
// error body of its refusals, and a streamed body. The reference page is Swagger UI, served from
// this server's own files under a policy of its own.
import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TSchema } from '@sinclair/typebox';
import { ErrorBody } from '@veritas/shared/domain';
import { XSRF_HEADER } from '@veritas/shared/domain';
import { ACCESS_COOKIE, API_V1_PREFIX, APP_PREFIX } from '../auth/cookies';
import { webhookDocuments } from '../webhooks/openapi';
import { DATABASE_OUTCOMES } from '../http-errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A body the handler reads as a stream: documented, not validated. */
    documentedBody?: TSchema;
    /** Headers of the route's answers, by status, with what each says: a body's schema cannot say them. */
    answerHeaders?: Record<number, Record<string, string>>;
  }
}

/** The Retry-After of a 429 or a 503. */
export const RETRY_AFTER = 'Seconds to wait before trying again.';

/** What every route may answer while its database is unavailable (docs/errors.md#database-unavailable). */
const UNAVAILABLE = {
  ...ErrorBody,
  properties: {
    ...ErrorBody.properties,
    outcome: {
      type: 'string',
      enum: [...DATABASE_OUTCOMES],
      description:
        'Whether the change asked for was not made, or may have been: repeating a write is safe only when not applied.',
    },
  },
  description: 'The database is unavailable for now: try again after Retry-After seconds.',
  headers: { 'retry-after': { type: 'string', description: RETRY_AFTER } },
};

/** Who may call a route: anyone, the console's signed-in user, the mobile app, or a session or deploy token. */
export type Access = 'public' | 'session' | 'app' | 'deploy' | 'api-key';

/** The reference page: Swagger UI's scripts and styles come from this server; it may not be framed. */
const DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Keywords only the API's validator reads (src/schemas.ts); JSON Schema has no such keywords. */
const VALIDATOR_KEYWORDS = new Set(['errorMessages', 'transform']);

/** A copy of `schema` without the validator's keywords (the routes keep theirs). */
function documented(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(documented);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([keyword]) => !VALIDATOR_KEYWORDS.has(keyword))
      .map(([keyword, value]) => [
        keyword,
        // Property names are not keywords: a field may be called anything.
        keyword === 'properties'
          ? Object.fromEntries(Object.entries(value as object).map(([name, field]) => [name, documented(field)]))
          : documented(value),
      ]),
  );
}

/** The refusals of a route: the error body, with the field its console screen reads (errorField). */
function refusals(route: RouteOptions): Record<string, object> {
  const field = route.config?.errorField;
  const body = field
    ? {
        ...ErrorBody,
        properties: {
          ...ErrorBody.properties,
          [field]: { type: 'string', description: 'The same message, where the calling screen reads it.' },
        },
        required: [...(ErrorBody.required ?? []), field],
      }
    : ErrorBody;
  return {
    '4XX': { ...body, description: 'Refused: the error body of docs/errors.md#server-error-bodies.' },
  };
}

/**
 * Every answer of a route: its own, its refusals, the database's 503, and the headers answers
 * carry (an API key's calls may answer 429 over the key's rate: docs/integrations.md).
 */
function answers(route: RouteOptions, own: Record<string, object> = {}, security: unknown): Record<string, unknown> {
  const refused = refusals(route);
  const all: Record<string, object> = { ...own, ...refused, 503: UNAVAILABLE };
  const apiKey = Array.isArray(security) && security.some((scheme) => 'apiKey' in scheme);
  const headers = { ...(apiKey ? { 429: { 'retry-after': RETRY_AFTER } } : {}), ...route.config?.answerHeaders };
  for (const [status, described] of Object.entries(headers)) {
    const answer = all[status] ?? { ...refused['4XX'], description: 'Too many requests: wait Retry-After seconds.' };
    all[status] = {
      ...answer,
      headers: Object.fromEntries(
        Object.entries(described).map(([name, description]) => [name, { type: 'string', description }]),
      ),
    };
  }
  return all;
}

function securityOf(access: Access, route: RouteOptions): Record<string, string[]>[] | undefined {
  // app.ts's XSRF check: every POST but the mobile app's.
  const xsrf: Record<string, string[]> =
    route.method === 'POST' && !route.url.startsWith(APP_PREFIX) && !route.url.startsWith(API_V1_PREFIX)
      ? { xsrf: [] }
      : {};
  if (access === 'app') return [{ bearer: [] }];
  if (access === 'api-key') return [{ apiKey: [] }];
  if (access === 'session') return [{ session: [], ...xsrf }];
  // A deploy token's call needs no XSRF header (cookies.ts xsrfGuard).
  if (access === 'deploy') return [{ session: [], ...xsrf }, { deployToken: [] }];
  return xsrf.xsrf ? [xsrf] : undefined;
}

/** Documents who may call the routes registered from now on in `scope` and its children. */
export function documentAccess(scope: FastifyInstance, access: Access): void {
  scope.addHook('onRoute', (route) => {
    if (route.schema) route.schema = { ...route.schema, security: securityOf(access, route) };
  });
}

export async function openApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Veritas API',
        version: '1.0.0',
        description:
          'The /veritas calls of the console and of the mobile app. Every refusal answers the error body: `detail`, the same message in the field the calling screen reads, and `field` for a 400.',
      },
      // What the endpoints receive, each message type described (docs/webhooks.md#events). The
      // option's type is a union of three OpenAPI versions, and only 3.1's knows `webhooks`.
      webhooks: webhookDocuments() as never,
      tags: [
        { name: 'sign-in', description: "The console's sign-in and session cookies" },
        { name: 'users', description: 'Console: users, groups, passwords and the mobile app package' },
        { name: 'devices', description: 'Console: device records, uploads, reports, dashboard and live events' },
        {
          name: 'white labels',
          description: 'Console: white-labelled brands, the manufacturer registry, the exclude list',
        },
        {
          name: 'cases',
          description: 'Console: cases of flagged devices, their queue, work, photos, views and bulk jobs',
        },
        { name: 'mobile app', description: "The field staff's app: sign-in and scans, with a bearer token" },
        {
          name: 'registry',
          description:
            "The remotes' versions and rollouts, for pipelines (deploy token) and admins; tokens and origins",
        },
        { name: 'integrations', description: 'Console: the API keys of the order systems' },
        { name: 'webhooks', description: 'Console: the webhook endpoints and their delivery log' },
        { name: 'api v1', description: "The order systems' API, with an API key of the call's scope" },
        { name: 'health', description: 'For a proxy or an orchestrator' },
      ],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: ACCESS_COOKIE,
            description: 'The access cookie user/login/ sets (renewed by user/refresh/).',
          },
          xsrf: {
            type: 'apiKey',
            in: 'header',
            name: XSRF_HEADER,
            description: "Every POST but the mobile app's: the value of the XSRF-TOKEN cookie, which any GET sets.",
          },
          bearer: { type: 'http', scheme: 'bearer', description: 'The token app/login/ answers.' },
          deployToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'A deploy token (vrt_…) a super_admin created with registry/tokens/; no XSRF header then.',
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key (vrt_…) an admin created with api/integrations/keys/, whose scopes name the call; no cookie, no XSRF header.',
          },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      if (!schema || schema.hide) return { schema, url };
      const { documentedBody } = route.config ?? {};
      const whole = {
        ...schema,
        ...(documentedBody ? { body: documentedBody } : {}),
        response: answers(route, schema.response as Record<string, object> | undefined, schema.security),
      };
      return { schema: documented(whole) as typeof schema, url };
    },
  });

  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.swagger();
  });

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: DOCS_POLICY,
    uiConfig: { deepLinking: true, defaultModelsExpandDepth: 0 },
    theme: { title: 'Veritas API' },
  });
}
