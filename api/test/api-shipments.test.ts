// Shipments in (docs/integrations.md#shipments-in): an order system sends a shipment as JSON items or
// as the upload's CSV with a shipments:write key and an Idempotency-Key; its rows are stored by the
// upload's rules with the upload's result; the same key and body answer the same result and store
// nothing again (also when sent at once), another body is 422; a large batch answers 202 with a job
// to poll, which another instance finishes when the one processing it stops.
import http from 'node:http';
import { SHIPMENT_COLUMNS } from '@veritas/shared/domain';
import { SMALL_BATCH_ROWS, shipmentIdOf } from '../src/integrations/shipments';
import { build, uploadCsv } from './support/build';
import { eventually } from '../../test-support/eventually';
import { withToken } from './support/registry';

const api = build({
  groups: [
    { code: 'HUB1', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [{ username: 'admin1', role: 'admin' }],
  signIn: { admin: 'admin1' },
  server: { apiKeyRate: 100_000 },
});

const nextYear = `${new Date().getUTCFullYear() + 1}-12-31`;
type Key = { token: { id: number }; secret: string };
const createKey = async (label: string, scopes: string[]): Promise<Key> => {
  const answer = await api.as.admin!.post('api/integrations/keys/', { label, scopes, expiresOn: nextYear });
  expect(answer.status).toBe(201);
  return answer.body as Key;
};

let shipper: Key;
let reader: Key;
beforeAll(async () => {
  shipper = await createKey('order system', ['shipments:write']);
  reader = await createKey('case reader', ['cases:read']);
  // Stored before: every body naming it has a true duplicate.
  const answers = await uploadCsv(api.as.admin!, 'pre.csv', 'tracking_id,hub_code\nPRE-1,HUB1\n');
  expect(answers.at(-1)!.body).toMatchObject({ processed: 1 });
});

interface Sent {
  status: number;
  body: any;
  headers: Headers;
}

async function send(
  body: string | Buffer,
  { key = 'call-1' as string | null, type = 'application/json', secret = '' } = {},
  url = api.url,
): Promise<Sent> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${secret || shipper.secret}`,
    'content-type': type,
  };
  if (key !== null) headers['idempotency-key'] = key;
  const response = await fetch(`${url}/veritas/api/v1/shipments/`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

type Row = readonly string[];
/** A row of the upload's columns (SHIPMENT_COLUMNS' order), as CSV: quoted when it must be. */
const csvCell = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
const csvOf = (rows: readonly Row[]) =>
  `${[SHIPMENT_COLUMNS.join(','), ...rows.map((row) => row.map(csvCell).join(','))].join('\n')}\n`;
/** The same rows as JSON items: an empty cell as an absent field, or null. */
const jsonOf = (rows: readonly Row[]) =>
  JSON.stringify(
    rows.map((row, i) =>
      Object.fromEntries(
        SHIPMENT_COLUMNS.flatMap((column, c): [string, string | null][] =>
          row[c] ? [[column, row[c]]] : i % 2 ? [[column, null]] : [],
        ),
      ),
    ),
  );

/** A shipment breaking each rule once, and two kinds of duplicates, its tracking IDs starting with `prefix`. */
const mixed = (prefix: string): Row[] => [
  [`${prefix}-1`, 'HUB1', 'mobile', 'Samsung', 'Galaxy S21', 'false', '', '', '2025-03-01T10:00:00Z'],
  [`${prefix}-2`, ' hub1 ', 'LAPTOP', 'Dell, Inc.', 'XPS "13"', 'yes', '', '', '2025-03-02'],
  ['bad id!', 'HUB1', '', '', '', '', '', '', ''],
  [`${prefix}-4`, 'RC1', '', '', '', '', '', '', ''],
  [`${prefix}-5`, 'HUB1', 'phone', 'x'.repeat(129), '', 'maybe', '', '', '2025-02-30'],
  [`${prefix}-1`, 'HUB1', '', '', '', '', '', '', ''],
  ['PRE-1', 'HUB1', '', '', '', '', '', '', ''],
  [`${prefix}-8`, 'HUB1', 'tablet', '  Spaced  ', 'two\nlines', 'true', 'Blind', 'Box', ''],
  ['', 'HUB1', '', '', '', '', '', '', ''],
];

/** A result with the tracking IDs of its duplicates written without their prefix. */
const unprefixed = (result: any, prefix: string) => ({
  ...result,
  duplicates: result.duplicates.map((d: { row: number; tracking_id: string }) => ({
    ...d,
    tracking_id: d.tracking_id.replace(prefix, 'P'),
  })),
});

async function stored(): Promise<Map<string, any>> {
  const answer = await api.as.admin!.get('api/get_status/');
  expect(answer.status).toBe(200);
  return new Map(answer.body.map((record: any) => [record.tracking_id.tracking_id, record.tracking_id]));
}

const uploadsOf = (tokenId: number) =>
  api.db.kysely.selectFrom('uploads').selectAll().where('token_id', '=', tokenId).execute();
const recordsOf = (uploadId: string) =>
  api.db.kysely.selectFrom('device_records').select('tracking_id').where('upload_id', '=', uploadId).execute();
const auditOf = async (action: string) =>
  (await api.superAdmin.get(`audit/?action=${action}&limit=200`)).body.entries as {
    actor: { kind: string; name: string };
    outcome: string;
    target: { id: string; label: string } | null;
    details: Record<string, unknown> | null;
  }[];

test('JSON items and the CSV are stored by the upload’s rules, with the upload’s result and row errors', async () => {
  const console = (await uploadCsv(api.as.admin!, 'mixed.csv', csvOf(mixed('UPL')))).at(-1)!;
  expect(console.status).toBe(200);
  expect(console.body).toMatchObject({ processed: 3, errors_total: 4, duplicates_total: 2 });

  const asCsv = await send(csvOf(mixed('CSV')), { key: 'mixed-csv', type: 'text/csv; charset=utf-8' });
  const asJson = await send(jsonOf(mixed('JSN')), { key: 'mixed-json' });
  expect([asCsv.status, asJson.status]).toEqual([200, 200]);
  expect(unprefixed(asCsv.body, 'CSV')).toEqual(unprefixed(console.body, 'UPL'));
  expect(unprefixed(asJson.body, 'JSN')).toEqual(unprefixed(console.body, 'UPL'));
  expect(asJson.headers.get('idempotent-replayed')).toBeNull();

  // Stored as the console's upload stores them: in the pick list's records.
  const records = await stored();
  for (const prefix of ['CSV', 'JSN']) {
    expect(records.get(`${prefix}-2`)).toMatchObject({ hub_code: 'HUB1', device_type: 'laptop', is_Blindpick: true });
    expect(records.get(`${prefix}-2`)).toMatchObject({ device_brand: 'Dell, Inc.', device_model_name: 'XPS "13"' });
    expect(records.get(`${prefix}-8`)).toMatchObject({
      device_brand: '  Spaced  ',
      device_model_name: 'two\nlines',
      Blind_brand: 'Blind',
    });
  }

  // The upload is the key's: the trail names the key, the Idempotency-Key is its label.
  const started = (await auditOf('upload.started')).find((entry) => entry.target?.label === 'mixed-json')!;
  expect(started).toMatchObject({ actor: { kind: 'token', name: 'order system' }, outcome: 'success' });
  expect(started.target!.id).toBe(shipmentIdOf(shipper.token.id, 'mixed-json'));
  const completed = (await auditOf('upload.completed')).find((entry) => entry.target?.label === 'mixed-json')!;
  expect(completed).toMatchObject({
    actor: { kind: 'token', name: 'order system' },
    details: { processed: 3, skipped: 6, errors: 4, duplicates: 2 },
  });
});

test('a JSON item with no field is a row of errors, not a blank line; numbers are the items’ own', async () => {
  const answer = await send(JSON.stringify([{}, { tracking_id: 'EMPTY-2', hub_code: 'HUB1' }, { hub_code: '  ' }]), {
    key: 'empty-items',
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({
    processed: 1,
    errors: [
      { row: 1, errors: ['tracking_id is required', 'hub_code is required'] },
      { row: 3, errors: ['tracking_id is required', 'hub_code is required'] },
    ],
  });
});

test('the same key and body answer the same result and store nothing again; another body is 422', async () => {
  const rows: Row[] = [
    ['SAME-1', 'HUB1', '', '', '', '', '', '', ''],
    ['SAME-2', 'NOPE', '', '', '', '', '', '', ''],
  ];
  const first = await send(jsonOf(rows), { key: 'same' });
  expect(first.body).toMatchObject({ processed: 1, errors_total: 1 });
  const startedBefore = (await auditOf('upload.started')).length;
  const uploadsBefore = (await uploadsOf(shipper.token.id)).length;

  // The same items, spaced otherwise and with their fields in another order: the same body.
  const items = JSON.parse(jsonOf(rows)) as Record<string, unknown>[];
  const reordered = JSON.stringify(
    items.map((item) => Object.fromEntries(Object.entries(item).reverse())),
    null,
    2,
  );
  for (const body of [jsonOf(rows), reordered]) {
    const again = await send(body, { key: 'same' });
    expect([again.status, again.body]).toEqual([200, first.body]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  }
  expect(await recordsOf(shipmentIdOf(shipper.token.id, 'same'))).toEqual([{ tracking_id: 'SAME-1' }]);
  expect((await uploadsOf(shipper.token.id)).length).toBe(uploadsBefore);
  expect((await auditOf('upload.started')).length).toBe(startedBefore);

  const other = await send(jsonOf([rows[0]!]), { key: 'same' });
  expect([other.status, other.body]).toEqual([422, { detail: 'This Idempotency-Key was used with another body.' }]);
  // Keys are per API key: another key's same Idempotency-Key is another call.
  const second = await createKey('second system', ['shipments:write']);
  const theirs = await send(jsonOf([['SAME-3', 'HUB1', '', '', '', '', '', '', '']]), {
    key: 'same',
    secret: second.secret,
  });
  expect([theirs.status, theirs.body.processed]).toEqual([200, 1]);
});

/**
 * Calls sending `body` with one key at once: each sends the first half of its body, then, once every
 * call is under way (each has looked for the key's upload and found none), the rest.
 */
async function atOnce(body: string, key: string, calls = 5): Promise<Sent[]> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const half = Math.floor(body.length / 2);
  const streamed = () =>
    new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(Buffer.from(body.slice(0, half)));
        await released;
        controller.enqueue(Buffer.from(body.slice(half)));
        controller.close();
      },
    });
  const sent = Array.from({ length: calls }, async () => {
    const response = await fetch(`${api.url}/veritas/api/v1/shipments/`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${shipper.secret}`,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: streamed(),
      duplex: 'half',
    } as RequestInit);
    return { status: response.status, body: await response.json(), headers: response.headers } as Sent;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  return Promise.all(sent);
}

test('calls sent at once with one key and body store it once and all answer its result', async () => {
  const rows: Row[] = Array.from({ length: 300 }, (_, i) => [`ONCE-${i}`, 'HUB1', '', '', '', '', '', '', '']);
  const answers = await atOnce(jsonOf(rows), 'at-once');
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
  expect(answers[0]!.body).toMatchObject({ processed: 300, skipped: 0 });
  expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(4);
  const id = shipmentIdOf(shipper.token.id, 'at-once');
  expect((await recordsOf(id)).length).toBe(300);
  expect((await auditOf('upload.started')).filter((entry) => entry.target?.id === id)).toHaveLength(1);
  // No staged body is left behind by the calls that lost the race.
  const staged = api.db.kysely.selectFrom('upload_chunks').select('upload_id').where('token_id', 'is not', null);
  expect(await staged.execute()).toEqual([]);

  // The same twice in a row: the second finds the upload and stores nothing.
  const again = await send(jsonOf(rows), { key: 'at-once' });
  expect([again.status, again.body]).toEqual([200, answers[0]!.body]);
  expect((await recordsOf(id)).length).toBe(300);

  // A large batch sent at once: every call answers 202 with the one job, never 409.
  const large: Row[] = Array.from({ length: 3000 }, (_, i) => [`ONCE-L${i}`, 'HUB1', '', '', '', '', '', '', '']);
  const jobs = await atOnce(jsonOf(large), 'at-once-large');
  const largeId = shipmentIdOf(shipper.token.id, 'at-once-large');
  for (const job of jobs) expect([job.status, job.body.id]).toEqual([202, largeId]);
  await eventually(
    async () =>
      (await withToken(api.url, shipper.secret, 'GET', `api/v1/shipments/${largeId}/`)).body.status === 'done',
    { withinMs: 60_000 },
  );
  expect((await recordsOf(largeId)).length).toBe(3000);
  expect(await staged.execute()).toEqual([]);
});

test(`a batch over ${SMALL_BATCH_ROWS} rows answers 202 with a job; polling it answers the result`, async () => {
  const rows: Row[] = Array.from({ length: 2500 }, (_, i) => [
    `BIG-${i}`,
    i === 7 ? 'NOPE' : 'HUB1',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
  ]);
  const accepted = await send(csvOf(rows), { key: 'big', type: 'text/csv' });
  const id = shipmentIdOf(shipper.token.id, 'big');
  const poll = `/veritas/api/v1/shipments/${id}/`;
  expect([accepted.status, accepted.body]).toEqual([202, { id, status: 'processing', poll }]);
  expect(accepted.headers.get('location')).toBe(poll);

  let state: any;
  await eventually(
    async () => {
      state = (await withToken(api.url, shipper.secret, 'GET', poll.replace('/veritas/', ''))).body;
      return state.status !== 'processing';
    },
    { withinMs: 60_000 },
  );
  expect(state).toMatchObject({
    id,
    status: 'done',
    result: { processed: 2499, errors_total: 1, errors: [{ row: 8, errors: ["hub_code 'NOPE' is not a hub"] }] },
  });
  expect((await recordsOf(id)).length).toBe(2499);
  expect((await stored()).get('BIG-2499')).toMatchObject({ hub_code: 'HUB1' });
  // Sent again once done: its result, nothing stored.
  const again = await send(csvOf(rows), { key: 'big', type: 'text/csv' });
  expect([again.status, again.body]).toEqual([200, state.result]);

  // A poll is its key's: another key, or an unknown id, is 404; a key without the scope 403.
  const other = await createKey('other system', ['shipments:write']);
  const theirs = await withToken(api.url, other.secret, 'GET', poll.replace('/veritas/', ''));
  expect([theirs.status, theirs.body.detail]).toEqual([404, 'No shipment of this key has that id.']);
  const unknown = shipmentIdOf(shipper.token.id, 'never sent');
  expect((await withToken(api.url, shipper.secret, 'GET', `api/v1/shipments/${unknown}/`)).status).toBe(404);
  expect((await withToken(api.url, reader.secret, 'GET', poll.replace('/veritas/', ''))).status).toBe(403);
});

test('a batch processing in the background when its server stops is finished by another instance', async () => {
  const other = await api.start({ apiKeyRate: 100_000 });
  const rows: Row[] = Array.from({ length: 30_000 }, (_, i) => [`MOVE-${i}`, 'HUB1', '', '', '', '', '', '', '']);
  const accepted = await send(jsonOf(rows), { key: 'moved' }, other.url);
  expect(accepted.status).toBe(202);
  // Stopping hands the lease over at the next batch; this instance's sweep takes the upload over.
  await other.close();
  const left = await api.db.kysely
    .selectFrom('uploads')
    .select(['status', 'lease_until_ms'])
    .where('upload_id', '=', accepted.body.id)
    .executeTakeFirstOrThrow();
  if (left.status === 'processing') expect(Number(left.lease_until_ms)).toBeLessThanOrEqual(Date.now());
  let state: any;
  await eventually(
    async () => {
      state = (await withToken(api.url, shipper.secret, 'GET', `api/v1/shipments/${accepted.body.id}/`)).body;
      return state.status !== 'processing';
    },
    { withinMs: 60_000 },
  );
  expect(state).toMatchObject({ status: 'done', result: { processed: 30_000, skipped: 0 } });
  expect((await recordsOf(accepted.body.id)).length).toBe(30_000);
}, 120_000);

test('a key without shipments:write is refused (403, recorded); no key is 401', async () => {
  const refused = await send('[]', { secret: reader.secret });
  expect([refused.status, refused.body.detail]).toEqual([
    403,
    'This key may not send shipments: it needs the scope shipments:write.',
  ]);
  expect((await auditOf('token.refused'))[0]).toMatchObject({
    actor: { name: 'case reader' },
    details: { reason: 'needs shipments:write', call: 'POST /veritas/api/v1/shipments/' },
  });
  const none = await fetch(`${api.url}/veritas/api/v1/shipments/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'x' },
    body: '[]',
  });
  expect(none.status).toBe(401);
});

test('refusals of the call: Idempotency-Key, media type, JSON that is not an array of items, a file that cannot be read', async () => {
  const message = 'Send an Idempotency-Key header of 1 to 255 visible ASCII characters.';
  for (const key of [null, '', 'has space', 'é', 'k'.repeat(256)]) {
    const answer = await send('[]', { key });
    expect([answer.status, answer.body]).toEqual([400, { detail: message, field: 'idempotency-key' }]);
  }
  expect((await send('[]', { key: 'k'.repeat(255) })).status).toBe(200);

  const xml = await send('<shipment/>', { key: 'xml', type: 'application/xml' });
  expect(xml.status).toBe(415);
  expect(typeof xml.body.detail).toBe('string');

  const refusals: [string, object][] = [
    ['{"tracking_id":"X"}', { detail: 'Send the shipment as a JSON array of items, or as text/csv.', field: 'body' }],
    ['', { detail: 'Send the shipment as a JSON array of items, or as text/csv.', field: 'body' }],
    ['[{"tracking_id":"X"}', { detail: 'The body is not a JSON array of items: it ends before the array does.' }],
    ['[{},]', { detail: 'The body is not a JSON array of items: item 2 is missing.' }],
    ['[] []', { detail: 'The body is not a JSON array of items: text follows the array.' }],
    ['[{}, 5]', { detail: "Row 2: an item is a JSON object whose fields are the CSV's columns.", row: 2 }],
    ['[{"a": tru}]', { detail: 'Row 1: the item is not valid JSON.', row: 1 }],
    ['[{}, {"__proto__": {"x": 1}}]', { detail: 'Row 2: the item holds a __proto__ or constructor key.', row: 2 }],
    [
      '[{"constructor": {"prototype": {"x": 1}}}]',
      { detail: 'Row 1: the item holds a __proto__ or constructor key.', row: 1 },
    ],
    [
      '[{}, {}, {"device_brand": 12}]',
      { detail: 'Row 3: device_brand must be text or null.', field: 'device_brand', row: 3 },
    ],
    [
      '[{"is_blindpick": {}}]',
      { detail: 'Row 1: is_blindpick must be text, true, false or null.', field: 'is_blindpick', row: 1 },
    ],
    [
      JSON.stringify([{ blind_model: 'x'.repeat(10_001) }]),
      { detail: 'Row 1: blind_model may be at most 10,000 characters.', field: 'blind_model', row: 1 },
    ],
    [
      '[{"tracking_id": "a\\u0000b"}]',
      {
        detail: 'Row 1: tracking_id must be text without NUL characters or unpaired surrogates.',
        field: 'tracking_id',
      },
    ],
  ];
  for (const [body, refusal] of refusals) {
    const answer = await send(body, { key: `bad ${body.slice(0, 20)}`.replaceAll(' ', '-') });
    expect([body.slice(0, 40), answer.status, answer.body]).toEqual([
      body.slice(0, 40),
      400,
      expect.objectContaining(refusal),
    ]);
  }
  const notUtf8 = await send(Buffer.from([0x5b, 0xff, 0x5d]), { key: 'not-utf8' });
  expect([notUtf8.status, notUtf8.body.detail]).toEqual([
    400,
    'The body is not a JSON array of items: it holds bytes that are not UTF-8.',
  ]);
  // Nothing of a refused body is kept: its key is unused.
  expect((await uploadsOf(shipper.token.id)).map((upload) => upload.file_name)).not.toContain('not-utf8');

  // A CSV the upload cannot read at all: 400 naming the body; the same call again answers it again.
  const headless = 'tracking_id,device_type\nX-1,mobile\n';
  const refused = await send(headless, { key: 'headless', type: 'text/csv' });
  expect([refused.status, refused.body]).toEqual([
    400,
    { detail: 'The header row lacks the required column hub_code.', field: 'body' },
  ]);
  const again = await send(headless, { key: 'headless', type: 'text/csv' });
  expect([again.status, again.body]).toEqual([400, refused.body]);
  const state = await withToken(
    api.url,
    shipper.secret,
    'GET',
    `api/v1/shipments/${shipmentIdOf(shipper.token.id, 'headless')}/`,
  );
  expect(state.body).toMatchObject({
    status: 'failed',
    error: { status: 400, detail: 'The header row lacks the required column hub_code.' },
  });
});

test('a body over 100 MiB is refused with 413 before it is read', async () => {
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(`${api.url}/veritas/api/v1/shipments/`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${shipper.secret}`,
        'content-type': 'text/csv',
        'idempotency-key': 'huge',
        'content-length': String(100 * 1024 * 1024 + 1),
      },
    });
    request.on('response', (response) => {
      let body = '';
      response.on('data', (data: Buffer) => (body += data.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
    request.write('tracking_id,hub_code\n');
  });
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body).detail).toBe('The body may be at most 104,857,600 bytes (100 MiB).');
});
