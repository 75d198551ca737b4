// The published API: every route declares the schemas of what it reads and answers, the OpenAPI
// document at openapi.json is valid OpenAPI 3.1 and lists every route, and the reference page at
// docs/ is served from this server under a policy of its own, never framed.
import net from 'node:net';
import Fastify, { type RouteOptions } from 'fastify';
import { api as veritasApi } from '../src/app';
import { API_PREFIX } from '@veritas/shared/domain';
import { EventHub } from '../src/events/hub';
import { build } from './support/build';

const api = build();

/** Answers streamed as they are read: their schema documents them, nothing serializes them. */
const STREAMED = {
  'GET /veritas/api/get_status/': 'the database renders each record and the pages are streamed',
  'POST /veritas/api/generate_csv/': 'a CSV file, streamed page by page',
  'GET /veritas/user/download_apk/': "the package's bytes, streamed from the file",
  'GET /veritas/api/events/': 'server-sent events, written to the socket as they come',
};

/** POSTs without a body. */
const BODYLESS = {
  'POST /veritas/user/refresh/': 'the refresh cookie is the only input',
  'POST /veritas/user/logout/': 'the session cookies name the session to end',
  'POST /veritas/app/logout/': 'the bearer token names the session to end',
  'POST /veritas/api/upload/': 'multipart parts read as a stream (documented by config.documentedBody)',
  'POST /veritas/api/v1/shipments/': 'JSON items or CSV read as a stream (documented by config.documentedBody)',
  'POST /veritas/registry/remotes/:remote/canary/stop/': 'the remote in the path is the only input',
  'POST /veritas/registry/remotes/:remote/rollback/': 'the remote in the path is the only input',
  'POST /veritas/registry/remotes/:remote/retire/': 'the remote in the path is the only input',
  'POST /veritas/registry/tokens/:id/revoke/': 'the token id in the path is the only input',
  'POST /veritas/api/integrations/keys/:id/revoke/': 'the key id in the path is the only input',
  'POST /veritas/api/cases/views/:id/delete/': 'the view id in the path is the only input',
  'POST /veritas/api/integrations/endpoints/:id/delete/': 'the endpoint id in the path is the only input',
  'POST /veritas/api/integrations/endpoints/:id/rotate/': 'the endpoint id in the path is the only input',
  'POST /veritas/api/integrations/endpoints/:id/test/': 'the endpoint id in the path is the only input',
  'POST /veritas/api/integrations/deliveries/:id/redeliver/': 'the delivery id in the path is the only input',
};

/** Every route of the API as registered, but the document and its page (hidden: they are not calls). */
async function registeredRoutes(): Promise<RouteOptions[]> {
  const routes: RouteOptions[] = [];
  const app = Fastify({ logger: false });
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD' && !route.schema?.hide) routes.push(route);
  });
  await app.register(veritasApi, { prefix: API_PREFIX, db: api.db, hub: new EventHub(api.db, app.log) });
  await app.close();
  return routes;
}

const has = (schema: unknown) => schema !== undefined && schema !== null;

test('every route declares its body, query, params and 2xx answer, but the listed exceptions', async () => {
  const routes = await registeredRoutes();
  const faults: string[] = [];
  for (const route of routes) {
    const name = `${[route.method].flat().join(',')} ${route.url}`;
    const schema = route.schema ?? {};
    if (route.method === 'POST' && !has(schema.body) && !(name in BODYLESS)) faults.push(`${name}: no body schema`);
    if (route.method === 'GET' && !has(schema.querystring)) faults.push(`${name}: no querystring schema`);
    if (route.url.includes(':') && !has(schema.params)) faults.push(`${name}: no params schema`);
    const answers = Object.keys((schema.response as object | undefined) ?? {}).filter((status) => /^2/.test(status));
    if (answers.length === 0) faults.push(`${name}: no 2xx answer schema`);
  }
  expect(faults).toEqual([]);
  // The exceptions are routes that exist.
  const names = new Set(routes.map((route) => `${route.method} ${route.url}`));
  expect([...Object.keys(STREAMED), ...Object.keys(BODYLESS)].filter((name) => !names.has(name))).toEqual([]);
});

test('openapi.json is a valid OpenAPI 3.1 document of every route, with who may call it and its refusals', async () => {
  const answer = await fetch(`${api.url}${API_PREFIX}/openapi.json`);
  expect(answer.status).toBe(200);
  const document = (await answer.json()) as Record<string, any>;
  // An ES module, loaded the way jest loads one.
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const result = await new Validator().validate(document);
  expect(result.errors).toBeUndefined();
  expect(result.valid).toBe(true);
  expect(document.openapi).toBe('3.1.0');

  const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );
  const routes = await registeredRoutes();
  // The document writes a path parameter {name}, Fastify :name.
  expect(operations.map((o) => o.name).sort()).toEqual(
    routes.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`).sort(),
  );
  for (const { name, operation } of operations) {
    expect([name, operation.summary, operation.tags?.length]).toEqual([name, expect.any(String), 1]);
    expect([name, operation.responses['4XX']?.content['application/json'].schema.required]).toEqual([
      name,
      expect.arrayContaining(['detail']),
    ]);
  }
  // The validator's own keywords stay in the routes.
  expect(JSON.stringify(document)).not.toMatch(/"(errorMessages|transform)"/);

  const operation = (name: string) => operations.find((o) => o.name === name)!.operation;
  expect(operation('POST /veritas/user/login/').security).toEqual([{ xsrf: [] }]);
  expect(operation('GET /veritas/health/live/').security).toBeUndefined();
  expect(operation('GET /veritas/user/get_users/').security).toEqual([{ session: [] }]);
  expect(operation('POST /veritas/user/create/').security).toEqual([{ session: [], xsrf: [] }]);
  expect(operation('POST /veritas/app/scan/submit/').security).toEqual([{ bearer: [] }]);
  expect(operation('POST /veritas/app/login/').security).toBeUndefined();
  // The registry: a session (with the XSRF header on a POST) or a deploy token; tokens, a session only.
  expect(operation('POST /veritas/registry/remotes/{remote}/promote/').security).toEqual([
    { session: [], xsrf: [] },
    { deployToken: [] },
  ]);
  expect(operation('POST /veritas/registry/tokens/').security).toEqual([{ session: [], xsrf: [] }]);
  // Every remote's rollout is the Deployments page's: a deploy token is refused it (registry-access.test.ts).
  expect(operation('GET /veritas/registry/remotes/').security).toEqual([{ session: [] }]);
  expect(operation('GET /veritas/registry/remotes/{remote}/').security).toContainEqual({ deployToken: [] });
  // The order systems' API: an API key only.
  expect(operation('GET /veritas/api/v1/cases/').security).toEqual([{ apiKey: [] }]);
  // Shipments in: JSON items or the upload's CSV, with an Idempotency-Key.
  const shipments = operation('POST /veritas/api/v1/shipments/');
  expect([shipments.tags, shipments.security]).toEqual([['api v1'], [{ apiKey: [] }]]);
  expect(Object.keys(shipments.requestBody.content)).toEqual(['application/json', 'text/csv']);
  expect(shipments.requestBody.content['application/json'].schema.type).toBe('array');
  expect(shipments.parameters).toContainEqual(
    expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true }),
  );
  expect(Object.keys(shipments.responses)).toEqual(expect.arrayContaining(['200', '202']));
  expect(operation('POST /veritas/api/integrations/keys/').security).toEqual([{ session: [], xsrf: [] }]);
  // Headers of answers (docs/integrations.md, docs/errors.md): the job's Location, a replay's mark,
  // Retry-After over an API key's rate, the session cookies, and the database's 503 on every call.
  expect(shipments.responses['202'].headers).toEqual({
    location: expect.objectContaining({ schema: { type: 'string' } }),
    'idempotent-replayed': expect.objectContaining({ schema: { type: 'string' } }),
  });
  expect(Object.keys(shipments.responses['200'].headers)).toEqual(['idempotent-replayed']);
  expect(Object.keys(operation('GET /veritas/api/v1/cases/').responses['429'].headers)).toEqual(['retry-after']);
  expect(Object.keys(operation('POST /veritas/user/login/').responses['200'].headers)).toContain('set-cookie');
  expect(Object.keys(operation('POST /veritas/user/login/').responses['429'].headers)).toEqual(['retry-after']);
  for (const { name, operation: documented } of operations)
    expect([name, Object.keys(documented.responses['503']?.headers ?? {})]).toEqual([name, ['retry-after']]);
  // The error body names the field the route's screen reads.
  expect(
    operation('POST /veritas/user/deactivate_user/').responses['4XX'].content['application/json'].schema.required,
  ).toEqual(['detail', 'error']);
  expect(Object.keys(operation('POST /veritas/api/upload/').requestBody.content)).toEqual(['multipart/form-data']);
  expect(Object.keys(operation('GET /veritas/api/events/').responses['200'].content)).toEqual(['text/event-stream']);
});

test('the reference page is served from this server, under its own policy, never framed', async () => {
  const page = await fetch(`${api.url}${API_PREFIX}/docs/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const policy = page.headers.get('content-security-policy')!;
  expect(policy.split('; ')).toEqual(
    expect.arrayContaining(["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]),
  );
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');

  // Every script and style it names is served here.
  const html = await page.text();
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url!);
  expect(assets.length).toBeGreaterThan(3);
  for (const asset of assets) {
    expect(asset).not.toMatch(/^(https?:)?\/\//);
    const answer = await fetch(new URL(asset, `${api.url}${API_PREFIX}/docs/`));
    expect([asset, answer.status]).toEqual([asset, 200]);
  }
});

test('a request line naming the whole URL is routed by its path alone: the redirect names no host it chose', async () => {
  const { hostname, port } = new URL(api.url);
  const head = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.write(
        `GET http://evil.example${API_PREFIX}/docs/static/index.html HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`,
      ),
    );
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(text.split('\r\n\r\n')[0]!));
  });
  expect(head).toMatch(/^HTTP\/1\.1 302/);
  expect(head).toMatch(new RegExp(`\r\nlocation: ${API_PREFIX}/docs/\r\n`, 'i'));
  expect(head).not.toMatch(/evil\.example/);
});
