// Hostile input, driven by the OpenAPI document (docs/errors.md#server-error-bodies): for every
// operation, each field, query parameter and path parameter in turn takes hostile values while the
// others keep plausible ones. The answer is never a 5xx, always a JSON error body with a text
// `detail` and the security headers (also where Fastify's router refuses a path parameter, before
// any hook), and nothing changes in the database. The order systems' API is called with
// an API key of every scope (its use, counted on its row, is the one change allowed) and one
// Idempotency-Key: a body of JSON items (api/v1/shipments/) has each field of its one item fuzzed,
// and after the plausible pass stored it, a hostile item is refused (400) or is another body (422).
import fc from 'fast-check';
import { sql } from 'kysely';
import { build, ENGINE, PASSWORD } from './support/build';
import { fannedOut } from './support/fan-out';

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [{ username: 'op1', role: 'operators', group: 'HUB1' }],
  // Every hostile value reaches the schema, never the key's rate limit.
  server: { apiKeyRate: 1_000_000 },
});

/** An API key's use: what a call with it changes on its row (docs/integrations.md#rate-limit). */
const KEY_USE_COLUMNS = ['last_used_ms', 'window_start_ms', 'window_calls'];

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  if?: Schema;
  then?: Schema;
  else?: Schema;
  allOf?: Schema[];
  items?: Schema;
}

interface Operation {
  method: string;
  path: string;
  /** The path with `{name}` where each path parameter goes, and each one's plausible value. */
  template: string;
  pathValues: Record<string, string>;
  query: Schema[];
  queryNames: string[];
  body?: Schema;
  /** The body is a list of `body`: each value is sent in its one item. */
  list: boolean;
}

const DEEP = 400;
/** Hostile JSON values, as JSON text: an object literal would turn `__proto__` into a prototype. */
const HOSTILE_JSON = [
  '{"toString":"x"}',
  '{"valueOf":"x"}',
  '{"toJSON":"x"}',
  '{"toString":{"toString":"x"},"valueOf":{"valueOf":"x"}}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{}',
  '[]',
  '["x"]',
  '[{"toString":"x"}]',
  '['.repeat(DEEP) + '"x"' + ']'.repeat(DEEP),
  '1e400',
  '-1e400',
  '1.7976931348623157e308',
  '-1',
  '-0',
  '0',
  '0.5',
  '9007199254740993',
  '123456789012345678901234567890',
  'true',
  'null',
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"x\\udc00"',
  JSON.stringify('x'.repeat(100_000)),
  JSON.stringify(' '.repeat(100_000)),
  // More generated ones, the same on every run: no plain text, which a free-text field may take.
  ...fc
    .sample(fc.oneof(fc.object(), fc.array(fc.jsonValue()), fc.double(), fc.bigInt()), { numRuns: 12, seed: 23 })
    .map((value) => (typeof value === 'bigint' ? value.toString() : JSON.stringify(value))),
];

/** Hostile query parameters: `{name}` is the parameter's name. */
const HOSTILE_QUERY = [
  '{name}=%00',
  '{name}=a%00b',
  '{name}=%ED%A0%80',
  '{name}=%FF%FE',
  `{name}=${'x'.repeat(100_000)}`,
  '{name}=a&{name}=b',
  '{name}=a&{name}=a&{name}=a',
  '{name}[]=a',
  '{name}[]=a&{name}[]=b',
  '{name}[toString]=x',
  '{name}[__proto__][x]=1',
  '{name}=1e400',
  '{name}=-1',
  '{name}=NaN',
  '{name}=Infinity',
  '__proto__=x&{name}=a',
  'toString=x&constructor[prototype]=x&{name}=a',
];

/**
 * Hostile path parameters, as they stand in the path: over the router's 100 characters, %-escapes
 * that are no UTF-8 text, NUL, a lone surrogate, a slash or a climb out of the path, numbers out of
 * range.
 */
const HOSTILE_PATH = [
  'a'.repeat(101),
  '9'.repeat(5_000),
  '%E0%A4%A',
  '%FF%FE',
  '%ED%A0%80',
  '%00',
  'a%00b',
  '%2F',
  '..%2F..%2Fetc',
  '%20',
  '-1',
  '1e400',
  '0x10',
  '9007199254740993',
  '__proto__',
  'constructor',
];

/** The fields of an object schema, from its own properties and those of its branches. */
function fieldsOf(schema: Schema): Record<string, Schema> {
  const branches = [schema.then, schema.else, ...(schema.allOf ?? [])].filter((s): s is Schema => !!s);
  return Object.assign({}, ...branches.map(fieldsOf), schema.properties);
}

const CANDIDATES = ['fuzz', 'fuzz@example.com', '2020-01-01', '999999', ''];

/** A plausible value of a field: one its schema accepts, so that the hostile field is the one at fault. */
function sample(schema: Schema): unknown {
  const own = Object.values(fieldsOf(schema)).length > 0 ? fieldsOf(schema) : undefined;
  if (schema.anyOf) return sample(schema.anyOf[0]!);
  if (schema.enum) return schema.enum.find((value) => value !== '') ?? schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || own) {
    return Object.fromEntries(Object.entries(own ?? {}).map(([name, field]) => [name, sample(field)]));
  }
  if (type === 'integer' || type === 'number') return 999999;
  if (type === 'array') return [];
  if (type === 'null') return null;
  if (schema.format === 'id') return '999999';
  if (schema.format === 'calendar-day') return '2020-01-01';
  if (schema.format === 'time-zone') return 'UTC';
  if (schema.pattern) return CANDIDATES.find((text) => new RegExp(schema.pattern!, 'u').test(text)) ?? 'fuzz';
  return 'fuzz';
}

/** `template` with each `{name}` replaced by its value in `values`, as it stands in a path. */
const fillPath = (template: string, values: Record<string, string>) =>
  Object.entries(values).reduce((filled, [name, value]) => filled.replace(`{${name}}`, value), template);

async function operations(): Promise<Operation[]> {
  const response = await fetch(`${api.url}/veritas/openapi.json`);
  const document = (await response.json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string; schema: Schema }[];
          requestBody?: { content: Record<string, { schema: Schema }> };
        }
      >
    >;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const body = operation.requestBody?.content['application/json']?.schema;
      const list = body?.type === 'array' && body.items !== undefined;
      // Path parameters take plausible values, so that the body and query are what is checked.
      const pathValues = Object.fromEntries(
        (operation.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => [p.name, encodeURIComponent(String(sample(p.schema)))]),
      );
      return {
        method: method.toUpperCase(),
        template: path,
        pathValues,
        path: fillPath(path, pathValues),
        query: query.map((p) => p.schema),
        queryNames: query.map((p) => p.name),
        body: list ? body!.items : body,
        list,
      };
    }),
  );
}

/** Every row of every table, as text, to compare before and after. */
async function snapshot(): Promise<Map<string, string>> {
  const tables =
    ENGINE === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(api.db.kysely)
      : await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = 'public'`.execute(
          api.db.kysely,
        );
  const rows = new Map<string, string>();
  for (const { name } of tables.rows) {
    const { rows: content } = await sql`select * from ${sql.table(name)}`.execute(api.db.kysely);
    rows.set(
      name,
      content
        .map((row) =>
          JSON.stringify(
            name === 'access_tokens'
              ? Object.fromEntries(
                  Object.entries(row as object).filter(([column]) => !KEY_USE_COLUMNS.includes(column)),
                )
              : row,
          ),
        )
        .sort()
        .join('\n'),
    );
  }
  return rows;
}

test('no hostile field, query or path parameter of any operation gets a 5xx or changes the database, and every refusal carries detail and the security headers', async () => {
  const console = api.superAdmin;
  const appLogin = await fetch(`${api.url}/veritas/app/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'op1', password: PASSWORD }),
  });
  const appToken = ((await appLogin.json()) as { token: string }).token;
  const cookies = `veritas_access=${console.cookie('veritas_access')}; XSRF-TOKEN=${console.cookie('XSRF-TOKEN')}`;

  const send = async (method: string, path: string, query: string, body?: string) => {
    const headers: Record<string, string> = path.startsWith('/veritas/app/')
      ? { authorization: `Bearer ${appToken}` }
      : path.startsWith('/veritas/api/v1/')
        ? { authorization: `Bearer ${apiKey}`, 'idempotency-key': 'hostile-input' }
        : { cookie: cookies, 'x-xsrf-token': console.cookie('XSRF-TOKEN')! };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const controller = new AbortController();
    const response = await fetch(`${api.url}${path}${query ? `?${query}` : ''}`, {
      method,
      headers,
      body,
      signal: controller.signal,
    });
    // A stream that accepted its query (the event stream) never ends by itself.
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      controller.abort();
      return { status: response.status, body: undefined, text: '', nosniff: true };
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return {
      status: response.status,
      body: parsed as { detail?: unknown } | undefined,
      text,
      // One of the security headers every answer carries (docs/sessions.md#security-headers).
      nosniff: response.headers.get('x-content-type-options') === 'nosniff',
    };
  };

  // The key before the plausible pass, which signs the console out at its end (user/logout/).
  const created = await console.post('api/integrations/keys/', {
    label: 'hostile input',
    scopes: ['shipments:write', 'records:read', 'cases:read', 'cases:write'],
    expiresOn: `${new Date().getUTCFullYear() + 1}-12-31`,
  });
  expect(created.status).toBe(201);
  const { secret: apiKey, token } = created.body as { secret: string; token: { id: number } };
  const apiKeyId = token.id;

  const cases = await operations();
  // Each operation once with its plausible values first, so that what they create exists before
  // the snapshot and a hostile value read as absent meets a conflict rather than creating it again.
  for (const operation of cases) {
    const query = new URLSearchParams(
      operation.queryNames.map((name, i): [string, string] => [name, String(sample(operation.query[i]!))]),
    ).toString();
    const body = operation.body && JSON.stringify(sample(operation.body));
    await send(operation.method, operation.path, query, body && (operation.list ? `[${body}]` : body));
  }
  // The plausible pass may have revoked the key (revoke/{id}): usable again for the hostile one.
  await api.db.kysely.updateTable('access_tokens').set({ revoked_ms: null }).where('id', '=', apiKeyId).execute();
  // The plausible pass's events are fanned out on the server's timer: its place moved before the snapshot.
  await fannedOut(api.db.kysely);
  const before = await snapshot();
  const faults: string[] = [];
  let requests = 0;
  let serverErrors = 0;
  /** What the shipments' hostile items were answered: refused (400), or another body than the stored one (422). */
  const shipmentAnswers = new Set<number>();
  const check = (
    what: string,
    answer: { status: number; body: { detail?: unknown } | undefined; text: string; nosniff: boolean },
  ) => {
    requests += 1;
    if (what.startsWith('POST /veritas/api/v1/shipments/ ')) shipmentAnswers.add(answer.status);
    if (answer.status >= 500) serverErrors += 1;
    // Only refusals are asked for: an accepted value would be one the schema takes.
    // The key must get the API's calls past its hook, to their schemas.
    if (what.includes(' /veritas/api/v1/') && answer.status === 401) faults.push(`${what}: the key was refused`);
    if (answer.status >= 500 || (answer.status >= 400 && typeof answer.body?.detail !== 'string')) {
      faults.push(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    if (!answer.nosniff) faults.push(`${what}: ${answer.status} without the security headers`);
  };

  for (const operation of cases) {
    const baseQuery = operation.queryNames.map((name, i) => [name, sample(operation.query[i]!)] as const);
    const queryText = (without: string) =>
      baseQuery
        .filter(([name]) => name !== without)
        .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
        .join('&');
    const baseBody = operation.body ? (sample(operation.body) as Record<string, unknown>) : undefined;
    const listed = (text: string) => (operation.list ? `[${text}]` : text);
    const bodyText = baseBody && listed(JSON.stringify(baseBody));

    for (const name of Object.keys(operation.pathValues)) {
      for (const hostile of HOSTILE_PATH) {
        check(
          `${operation.method} ${operation.template} {${name}}: ${hostile.slice(0, 40)}`,
          await send(
            operation.method,
            fillPath(operation.template, { ...operation.pathValues, [name]: hostile }),
            queryText(''),
            bodyText,
          ),
        );
      }
    }
    for (const name of operation.queryNames) {
      for (const hostile of HOSTILE_QUERY) {
        const query = [queryText(name), hostile.replaceAll('{name}', encodeURIComponent(name))].filter(Boolean);
        check(
          `${operation.method} ${operation.path} ?${name}: ${hostile.slice(0, 40)}`,
          await send(operation.method, operation.path, query.join('&'), bodyText),
        );
      }
    }
    if (!baseBody) continue;
    for (const field of Object.keys(fieldsOf(operation.body!))) {
      const others = JSON.stringify(Object.fromEntries(Object.entries(baseBody).filter(([name]) => name !== field)));
      for (const hostile of HOSTILE_JSON) {
        // The other fields as JSON text, then the hostile one spliced in as text.
        const body = `${others.slice(0, -1)}${others.length > 2 ? ',' : ''}${JSON.stringify(field)}:${hostile}}`;
        check(
          `${operation.method} ${operation.path} ${field}: ${hostile.slice(0, 40)}`,
          await send(operation.method, operation.path, queryText(''), listed(body)),
        );
      }
    }
  }
  await fannedOut(api.db.kysely);
  const after = await snapshot();

  process.stdout.write(`hostile input (${ENGINE}): ${requests} requests, ${serverErrors} answers of 5xx\n`);
  expect(faults).toEqual([]);
  expect(serverErrors).toBe(0);
  expect([...shipmentAnswers].sort()).toEqual([400, 422]);
  for (const [table, rows] of before) expect({ table, rows: after.get(table) }).toEqual({ table, rows });
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
}, 120_000);
