// api/events/, the live event stream (docs/events.md): what each write sends, in commit order,
// filtered by viewer; the replay after a reconnect and its window; how a stream ends; the fan-out
// across two instances on PostgreSQL.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { pruneEvents, REPLAY_WINDOW_MS, MAX_KEPT_EVENTS } from '../src/events/repository';
import { groupEvent, writeEvents } from '../src/events/write';
import { ENGINE, PASSWORD, build, onPostgres, uploadCsv, type Client } from './support/build';
import { EventStreamReader } from './support/event-stream';
import { eventually } from '../../test-support/eventually';
import { fannedOut, newestEventId } from './support/fan-out';

const api = build({
  groups: [
    { code: 'HUB1', organization: 'hub' },
    { code: 'HUB2', organization: 'hub' },
    { code: 'RC1', organization: 'RC' },
  ],
  users: [
    { username: 'admin1', role: 'admin' },
    { username: 'inch1', role: 'incharge', group: 'HUB1' },
    { username: 'ops1', role: 'central_ops' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'op1', role: 'operators', group: 'HUB1' },
    { username: 'rc1', role: 'executive', group: 'RC1' },
  ],
  signIn: { admin: 'admin1', incharge: 'inch1', centralOps: 'ops1', executive: 'exec1' },
  // The console's page document too: it names the newest event (docs/events.md#the-first-stream).
  server: { shellDocument: '<!doctype html><html><head><title>Veritas</title></head><body></body></html>' },
});

const open = (client: Client | null, options?: Parameters<typeof EventStreamReader.open>[2], url = api.url) =>
  EventStreamReader.open(url, client, options);

let groups = 0;
/** Creates a group through the API: one 'groups' event every viewer sees. Answers its code. */
async function createGroup(): Promise<string> {
  const code = `G${++groups}-${crypto.randomBytes(3).toString('hex')}`;
  const answer = await api.superAdmin.post('user/create_group/', { code, organization: 'hub' });
  expect(answer.status).toBe(201);
  return code;
}

/** Creates a group and waits until `streams` have received its event: everything written before has arrived. */
async function marker(...streams: EventStreamReader[]): Promise<number> {
  const code = await createGroup();
  const ids = await Promise.all(streams.map((stream) => stream.waitForEvent('groups', (data) => data.code === code)));
  return ids[0]!.id;
}

/**
 * The ids of the events after `id`, but the audit trail's: each API call the tests make writes one
 * besides its own event (docs/audit.md), and these tests count the events of the calls. Nor the
 * webhooks' own (shipments), which no stream is sent.
 */
async function idsAfter(id: number): Promise<number[]> {
  const rows = await api.db.kysely
    .selectFrom('events')
    .select('id')
    .where('id', '>', id)
    .where('type', 'not in', ['audit', 'shipments'])
    .orderBy('id')
    .execute();
  return rows.map((row) => Number(row.id));
}

/** The ids a stream received, but the audit trail's (see idsAfter). */
const received = (stream: EventStreamReader) => stream.events.filter((e) => e.event !== 'audit').map((e) => e.id);

const newestId = () => newestEventId(api.db.kysely);

const HEADER =
  'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';

/** Uploads records of `hubs` (one each) through api/upload/; their tracking IDs. */
async function ship(...hubs: string[]): Promise<string[]> {
  const ids = hubs.map(() => `EV-${crypto.randomBytes(5).toString('hex')}`);
  const rows = hubs.map((hub, n) => `${ids[n]},${hub},mobile,Samsung,Galaxy S23,false,,,2025-03-01T10:00:00Z`);
  const answers = await uploadCsv(api.as.admin!, 'events.csv', `${HEADER}\n${rows.join('\n')}\n`);
  expect(answers.at(-1)!.body).toMatchObject({ processed: hubs.length });
  return ids;
}

test('the stream needs a console session: 401 without', async () => {
  const stream = await open(null);
  expect(stream.status).toBe(401);
  stream.close();
});

test("the stream answers the contract's headers, uncompressed, and opens with the retry hint and a comment", async () => {
  const client = api.as.admin!;
  const stream = await open(client, { headers: { 'accept-encoding': 'gzip, br' } });
  expect(stream.status).toBe(200);
  expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(stream.headers['cache-control']).toBe('no-store');
  expect(stream.headers['x-accel-buffering']).toBe('no');
  expect(stream.headers['content-encoding']).toBeUndefined();
  const first = await stream.waitFor(() => true);
  expect(first).toEqual({ retry: '2000', comments: ['connected'] });
  stream.close();
});

test('without a last id a stream sends only the events written after it opened', async () => {
  await createGroup();
  const before = await newestId();
  const stream = await open(api.as.admin!);
  await stream.waitFor((m) => m.comments.includes('connected'));
  const id = await marker(stream);
  expect(received(stream)).toEqual([id]);
  expect(id).toBeGreaterThan(before);
  stream.close();
});

test('concurrent writes reach the stream once each, ids strictly increasing, as the table holds them', async () => {
  const start = await newestId();
  const stream = await open(api.as.admin!);
  await stream.waitFor((m) => m.comments.includes('connected'));
  await Promise.all([...Array.from({ length: 10 }, () => createGroup()), ship('HUB1', 'HUB2'), ship('HUB1')]);
  const last = await marker(stream);
  const ids = received(stream);
  expect(ids).toEqual(await idsAfter(start).then((all) => all.filter((id) => id <= last)));
  expect(ids.length).toBe(13);
  stream.close();
});

test('ids grow in commit order: a write waits for an open one to commit before it takes its id, and the stream gets both', async () => {
  const stream = await open(api.as.admin!);
  await stream.waitFor((m) => m.comments.includes('connected'));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let inserted!: () => void;
  const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
  const first = api.db.kysely.transaction().execute(async (trx) => {
    await writeEvents(trx, api.db, [groupEvent({ name: 'first', code: 'ORDER-1', organization: 'hub' })]);
    inserted();
    await held;
  });
  await firstInserted;
  let secondDone = false;
  // Another connection of the pool on PostgreSQL; on SQLite it waits for Kysely's one connection.
  const second = api.db.kysely
    .transaction()
    .execute((trx) => writeEvents(trx, api.db, [groupEvent({ name: 'second', code: 'ORDER-2', organization: 'hub' })]))
    .then(() => (secondDone = true));
  if (ENGINE === 'postgres') {
    // The second waits for the events lock the first holds until its commit.
    await eventually(async () => {
      const { rows } = await sql<{
        n: string;
      }>`select count(*) as n from pg_locks where locktype = 'advisory' and not granted`.execute(api.db.kysely);
      return Number(rows[0]!.n) > 0;
    });
  }
  expect(secondDone).toBe(false);
  release();
  await first;
  await second;

  const a = await stream.waitForEvent('groups', (data) => data.code === 'ORDER-1');
  const b = await stream.waitForEvent('groups', (data) => data.code === 'ORDER-2');
  expect(b.id).toBeGreaterThan(a.id);
  expect(stream.events.findIndex((e) => e.id === a.id)).toBeLessThan(stream.events.findIndex((e) => e.id === b.id));
  stream.close();
});

test('an upload batch sends one uploaded event with the records it stored and their hubs', async () => {
  const stream = await open(api.as.admin!);
  await stream.waitFor((m) => m.comments.includes('connected'));
  await ship('HUB2', 'HUB1', 'HUB2');
  const event = await stream.waitForEvent('records', (data) => data.action === 'uploaded');
  expect(event.data).toEqual({ action: 'uploaded', count: 3, hubs: ['HUB1', 'HUB2'] });
  stream.close();
});

describe('field scans', () => {
  const tokens: Record<string, string> = {};
  async function call(path: string, body: unknown, who: string) {
    const response = await fetch(`${api.url}/veritas/app/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(tokens[who] ? { authorization: `Bearer ${tokens[who]}` } : {}),
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }
  async function samsungMac(): Promise<string> {
    const row = await api.db.kysely
      .selectFrom('oui_prefixes as p')
      .innerJoin('manufacturers as m', 'm.id', 'p.manufacturer_id')
      .select('p.prefix')
      .where('m.manufacturer', '=', 'Samsung Electronics Co.,Ltd')
      .where(sql<boolean>`length(p.prefix) = 6`)
      .orderBy('p.prefix')
      .executeTakeFirstOrThrow();
    return (row.prefix + crypto.randomBytes(3).toString('hex').toUpperCase()).match(/../g)!.join(':');
  }
  async function statusRecord(trackingId: string) {
    const answer = await api.as.admin!.get('api/get_status/');
    return answer.body.find((r: any) => r.tracking_id.tracking_id === trackingId);
  }

  beforeAll(async () => {
    for (const username of ['op1', 'exec1', 'rc1']) {
      const answer = await call('login/', { username, password: PASSWORD }, '');
      expect(answer.status).toBe(200);
      tokens[username] = answer.body.token;
    }
  });

  test("each field step sends its action with the record after it, equal to get_status's: submitted, verified, detached", async () => {
    const [trackingId] = await ship('HUB1');
    const stream = await open(api.as.admin!);
    await stream.waitFor((m) => m.comments.includes('connected'));
    const step = async (action: string, path: string, body: object, who: string) => {
      expect((await call(`scan/${path}/`, { tracking_id: trackingId, ...body }, who)).status).toBe(200);
      const event = await stream.waitForEvent('records', (data) => data.action === action);
      expect(event.data).toEqual({ action, records: [await statusRecord(trackingId!)] });
      return event.data.records[0];
    };
    const submitted = await step(
      'submitted',
      'submit',
      { mac_address: await samsungMac(), model: 'Galaxy S23', hardware_id: 'HW-EV' },
      'op1',
    );
    expect(submitted).toMatchObject({ is_submit: true, submitted_by: { username: 'op1' }, device_result: 'passed' });
    expect((await step('verified', 'verify_hub', { hardware_id: 'HW-EV' }, 'exec1')).is_verified).toBe(true);
    expect((await step('detached', 'verify_rc', { hardware_id: 'HW-EV' }, 'rc1')).is_verified_rc_by).toBe(true);
    stream.close();
  });
});

test('a reconnect with Last-Event-ID replays exactly the missed events, then goes live: no duplicate, no gap', async () => {
  const first = await open(api.as.admin!);
  await first.waitFor((m) => m.comments.includes('connected'));
  const seen = await marker(first);
  first.close();
  // Missed while disconnected.
  for (let i = 0; i < 5; i++) await createGroup();
  await ship('HUB1');

  const second = await open(api.as.admin!, { lastEventId: seen });
  // Written while the replay is read and after.
  const writes = Promise.all([createGroup(), createGroup(), ship('HUB2')]);
  await writes;
  const last = await marker(second);
  const ids = received(second);
  expect(ids).toEqual((await idsAfter(seen)).filter((id) => id <= last));
  expect(ids.length).toBe(10);
  second.close();
});

test('?last_event_id= resumes like the header, and the header wins over it', async () => {
  const seen = await newestId();
  const written = [await createGroup(), await createGroup()];
  const byQuery = await open(api.as.admin!, { query: `?last_event_id=${seen}` });
  const both = await open(api.as.admin!, { query: '?last_event_id=1', lastEventId: seen });
  for (const stream of [byQuery, both]) {
    const codes = await Promise.all(written.map((code) => stream.waitForEvent('groups', (data) => data.code === code)));
    expect(received(stream)).toEqual(codes.map((e) => e.id));
    stream.close();
  }
});

test('?last_event_id= is text of at most 1024 characters, as every text the API takes (docs/errors.md)', async () => {
  const tooLong = await api.as.admin!.get(`api/events/?last_event_id=${'9'.repeat(1025)}`);
  expect([tooLong.status, tooLong.body]).toEqual([
    400,
    { detail: 'Text may be at most 1024 characters.', field: 'last_event_id' },
  ]);
  const repeated = await api.as.admin!.get('api/events/?last_event_id=1&last_event_id=2');
  expect([repeated.status, repeated.body]).toEqual([
    400,
    { detail: 'last_event_id must be text.', field: 'last_event_id' },
  ]);
});

describe('the replay window', () => {
  /** Events up to `id` written 11 minutes ago, then pruned. */
  async function ageThrough(id: number) {
    await api.db.kysely
      .updateTable('events')
      .set({ created_ms: Date.now() - REPLAY_WINDOW_MS - 60_000 })
      .where('id', '<=', id)
      .execute();
    // Pruning waits for the webhooks' fan-out to read the events (its outbox): the server's does, within a moment.
    await fannedOut(api.db.kysely);
    await pruneEvents(api.db, Date.now());
  }

  test('pruning deletes the events older than 10 minutes and keeps the rest', async () => {
    await createGroup();
    const old = await newestId();
    await createGroup();
    const recent = await newestId();
    await ageThrough(old);
    expect(await idsAfter(0)).toEqual([recent]);
  });

  test('pruning keeps the newest event however old, so the newest id stays known', async () => {
    const newest = await newestId();
    await ageThrough(newest);
    expect(await idsAfter(0)).toEqual([newest]);
  });

  test('an id older than the window gives reset with the newest id, then live events', async () => {
    const old = await newestId();
    await createGroup();
    await createGroup();
    const newest = await newestId();
    await ageThrough(newest - 1);
    const stream = await open(api.as.admin!, { lastEventId: old });
    const reset = await stream.waitFor((m) => m.event === 'reset');
    expect(reset).toEqual({ id: String(newest), event: 'reset', data: '{}', comments: [] });
    const id = await marker(stream);
    expect(received(stream)).toEqual([newest, id]);
    stream.close();
  });

  test('the id just before the oldest kept replays from the oldest: nothing was missed', async () => {
    await createGroup();
    const oldest = (await idsAfter(0))[0]!;
    const stream = await open(api.as.admin!, { lastEventId: oldest - 1 });
    const id = await marker(stream);
    expect(received(stream)).toEqual((await idsAfter(oldest - 1)).filter((n) => n <= id));
    expect(stream.events.some((e) => e.event === 'reset')).toBe(false);
    stream.close();
  });

  test('an id ahead of the newest, or not an id, gives reset with the newest id', async () => {
    const newest = await newestId();
    for (const lastEventId of [newest + 1000, 'soon']) {
      const stream = await open(api.as.admin!, { lastEventId });
      expect(await stream.waitFor((m) => m.event !== undefined)).toMatchObject({ id: String(newest), event: 'reset' });
      stream.close();
    }
  });
});

test('users events reach only the viewers who may see that user: admins all, others the roles they may assign', async () => {
  const viewers = {
    admin: api.as.admin!,
    incharge: api.as.incharge!,
    centralOps: api.as.centralOps!,
    executive: api.as.executive!,
  };
  const streams = Object.fromEntries(
    await Promise.all(Object.entries(viewers).map(async ([name, client]) => [name, await open(client)] as const)),
  );
  await Promise.all(Object.values(streams).map((stream) => stream.waitFor((m) => m.comments.includes('connected'))));
  const create = async (username: string, role: string) =>
    expect(
      (
        await api.superAdmin.post('user/create/', {
          username,
          email: `${username}@example.com`,
          password: PASSWORD,
          role,
          group: 'HUB1',
          organization: 'hub',
        })
      ).status,
    ).toBe(201);
  await create('new_operator', 'operators');
  await create('new_incharge', 'incharge');
  const operatorId = (
    await api.db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'new_operator')
      .executeTakeFirstOrThrow()
  ).id;
  expect((await api.superAdmin.post('user/deactivate_user/', { user_id: operatorId })).status).toBe(200);
  expect((await api.superAdmin.post('user/activate_user/', { user_id: operatorId })).status).toBe(200);
  // Activating an active user changes nothing: no event.
  expect((await api.superAdmin.post('user/activate_user/', { user_id: operatorId })).status).toBe(200);
  await marker(...Object.values(streams));

  const users = (name: string) => streams[name]!.events.filter((e) => e.event === 'users').map((e) => e.data);
  const operator = (action: string) => ({ action, username: 'new_operator', role: 'operators' });
  const incharge = { action: 'created', username: 'new_incharge', role: 'incharge' };
  expect(users('admin')).toEqual([operator('created'), incharge, operator('deactivated'), operator('activated')]);
  expect(users('incharge')).toEqual([operator('created'), operator('deactivated'), operator('activated')]);
  expect(users('centralOps')).toEqual([incharge]);
  expect(users('executive')).toEqual([]);
  for (const stream of Object.values(streams)) stream.close();
});

test('a groups event carries the group as created', async () => {
  const stream = await open(api.as.executive!);
  await stream.waitFor((m) => m.comments.includes('connected'));
  expect(
    (await api.superAdmin.post('user/create_group/', { code: 'RC9', organization: 'RC', name: 'Return Nine' })).status,
  ).toBe(201);
  expect((await stream.waitForEvent('groups', (data) => data.code === 'RC9')).data).toEqual({
    action: 'created',
    name: 'Return Nine',
    code: 'RC9',
    organization: 'RC',
  });
  stream.close();
});

test('a stream ends when the access token it was opened with expires', async () => {
  const client = await api.signIn('exec1');
  const hash = crypto.createHash('sha256').update(client.cookie('veritas_access')!).digest('hex');
  await api.db.kysely
    .updateTable('auth_tokens')
    .set({ expires_at: new Date(Date.now() + 1500).toISOString() })
    .where('token_hash', '=', hash)
    .execute();
  const stream = await open(client);
  expect(stream.status).toBe(200);
  await stream.ended;
  expect(stream.messages.some((m) => m.retry === '1000')).toBe(false);
});

test('a stream ends at its next ping once its session is revoked (signed out)', async () => {
  const client = await api.signIn('exec1');
  const stream = await open(client);
  await stream.waitFor((m) => m.comments.includes('connected'));
  expect((await client.post('user/logout/')).status).toBe(200);
  await stream.ended;
  expect(stream.messages.some((m) => m.comments.includes('ping'))).toBe(false);
}, 30_000);

test('a closing server ends every stream with the retry hint, and its close does not wait for them', async () => {
  const server = await api.start();
  const streams = [await open(api.as.admin!, {}, server.url), await open(api.as.executive!, {}, server.url)];
  await Promise.all(streams.map((stream) => stream.waitFor((m) => m.comments.includes('connected'))));
  await server.close();
  for (const stream of streams) {
    await stream.ended;
    expect(stream.messages.at(-1)).toEqual({ retry: '1000', comments: [] });
  }
});

test('a server without the live-events feature has no stream: 404', async () => {
  const server = await api.start({ specOnly: true });
  const stream = await open(api.as.admin!, {}, server.url);
  expect(stream.status).toBe(404);
  stream.close();
  await server.close();
});

onPostgres('an event written through one instance reaches a stream open on another (LISTEN/NOTIFY)', async () => {
  const second = await api.start();
  const stream = await open(api.as.admin!, {}, second.url);
  await stream.waitFor((m) => m.comments.includes('connected'));
  const code = await createGroup();
  await ship('HUB1');
  await stream.waitForEvent('groups', (data) => data.code === code);
  expect((await stream.waitForEvent('records', (data) => data.action === 'uploaded')).data).toEqual({
    action: 'uploaded',
    count: 1,
    hubs: ['HUB1'],
  });
  stream.close();
  await second.close();
});

describe("the page document's mark (docs/events.md#the-first-stream)", () => {
  /** The event id the page document at / names for `client`, or null when it names none. */
  async function documentMark(client: Client | null): Promise<number | null> {
    const cookie = client ? client.cookieHeader() : '';
    const answer = await fetch(`${api.url}/`, { headers: cookie ? { cookie } : {} });
    expect(answer.status).toBe(200);
    const mark = /<meta name="veritas-last-event-id" content="(\d+)">/.exec(await answer.text())?.[1];
    return mark === undefined ? null : Number(mark);
  }

  test("a signed-in viewer's document names an event already written; a stream resumed after it gets what was written since, nothing lost between", async () => {
    const live = await open(api.as.admin!);
    const before = await marker(live);
    live.close();
    const mark = (await documentMark(api.as.admin!))!;
    expect(mark).toBeGreaterThanOrEqual(before);
    expect(mark).toBeLessThanOrEqual(await newestId());
    // Written after the document, before the tab's stream opens: as a page's first reads may be.
    const code = await createGroup();
    const stream = await open(api.as.admin!, { query: `?last_event_id=${mark}` });
    const event = await stream.waitForEvent('groups', (data) => data.code === code);
    expect(event.id).toBeGreaterThan(mark);
    expect(stream.events.some((e) => e.event === 'reset')).toBe(false);
    expect(received(stream)).toEqual((await idsAfter(mark)).filter((id) => id <= event.id));
    stream.close();
  });

  test("nobody's document names no event; a console sign-in's answer does, and a stream resumed after it gets what was written since", async () => {
    expect(await documentMark(null)).toBeNull();
    const live = await open(api.as.admin!);
    const before = await marker(live);
    live.close();
    const client = api.client();
    const signedIn = await client.login('admin1');
    expect(signedIn.body).toEqual({ is_webview: true, role: 'admin' });
    const mark = Number(signedIn.headers.get('veritas-last-event-id'));
    expect(mark).toBeGreaterThanOrEqual(before);
    expect(mark).toBeLessThanOrEqual(await newestId());
    const code = await createGroup();
    const stream = await open(client, { query: `?last_event_id=${mark}` });
    const event = await stream.waitForEvent('groups', (data) => data.code === code);
    expect(received(stream)).toEqual((await idsAfter(mark)).filter((id) => id <= event.id));
    stream.close();
    // A failed sign-in names none.
    expect((await api.client().login('admin1', 'wrong')).headers.get('veritas-last-event-id')).toBeNull();
  });
});

// Last: its 100k events would reach any stream open meanwhile.
test('pruning keeps at most 100k events', async () => {
  const rows = MAX_KEPT_EVENTS + 10;
  const now = Date.now();
  await (
    ENGINE === 'postgres'
      ? sql`insert into events (type, data, created_ms) select 'groups', '{}', ${now} from generate_series(1, ${rows})`
      : sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${rows})
          insert into events (type, data, created_ms) select 'groups', '{}', ${now} from n`
  ).execute(api.db.kysely);
  const newest = await newestId();
  // As if the webhooks' fan-out had read them all (webhooks-takeover.test.ts tests its hold on pruning).
  await api.db.kysely.updateTable('webhook_fan_out').set({ last_event_id: newest }).execute();
  await pruneEvents(api.db, now);
  const kept = await idsAfter(0);
  expect(kept.length).toBe(MAX_KEPT_EVENTS);
  expect(kept.at(-1)).toBe(newest);
});

// After the 100k: it empties the table, as a database no event was ever written to.
test('a mark of 0 (a document made before any event) on an empty table replays nothing and resets nothing', async () => {
  await api.db.kysely.deleteFrom('events').execute();
  const stream = await open(api.as.admin!, { lastEventId: 0 });
  await stream.waitFor((m) => m.comments.includes('connected'));
  const id = await marker(stream);
  expect(stream.events.some((e) => e.event === 'reset')).toBe(false);
  expect(received(stream)).toEqual([id]);
  stream.close();
});
