// Webhooks (docs/webhooks.md) over real HTTP on both engines, to a real receiver that checks every
// signature with the `standardwebhooks` package: endpoints made by an admin only, the secret shown
// once; a flagging scan's messages, thin and signed; both signatures during a rotation; the
// receiver down for a while, then up: every event delivered, a duplicate only with the same
// webhook-id; 429 with Retry-After; 410 disabling the endpoint; failing for days disabling it; the
// delivery log, redelivery and replay; addresses refused (SSRF); two instances never sending one
// attempt at once. An instance killed mid-delivery: webhooks-takeover.test.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_URL_FORMAT } from '@veritas/shared/domain';
import { resolveEndpoint, urlProblem } from '../src/webhooks/send';
import { build, signIn } from './support/build';
import { eventually } from '../../test-support/eventually';
import { fieldApp } from './support/field-app';
import { WebhookReceiver, type Received } from './support/webhook-receiver';

const SCHEDULE_MS = [100, 200, 300, 400, 500, 600, 700, 800, 900];
const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'admin1', role: 'admin' },
    { username: 'ops1', role: 'central_ops' },
    { username: 'op1', role: 'operators', group: 'HUB1' },
  ],
  signIn: { admin: 'admin1', ops: 'ops1' },
  server: {
    webhooksAllowLocal: true,
    webhookDelivery: { scheduleMs: SCHEDULE_MS, timeoutMs: 2000, failingDisableMs: 60 * 60 * 1000 },
  },
});
const field = fieldApp(api);
const receiver = new WebhookReceiver();

beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});
beforeEach(() => {
  receiver.answer = () => ({ status: 200 });
});

interface Endpoint {
  id: number;
  url: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  previousSecretExpiresAt: string | null;
}

async function addEndpoint(eventTypes: string[], url = receiver.url): Promise<{ endpoint: Endpoint; secret: string }> {
  const answer = await api.as.admin!.post('api/integrations/endpoints/', { url, eventTypes, description: 'returns' });
  expect(answer.status).toBe(201);
  return answer.body;
}
/** Endpoints off, so one test's messages do not go to another's. */
async function disableAll() {
  await api.db.kysely.updateTable('webhook_endpoints').set({ enabled: 0, disabled_reason: 'admin' }).execute();
}
afterEach(disableAll);

const auditOf = async (action: string) =>
  (await api.superAdmin.get(`audit/?action=${action}&limit=50`)).body.entries as {
    actor: { kind: string; name: string };
    target: { label: string } | null;
    details: Record<string, unknown> | null;
  }[];

test('an admin adds an endpoint: the secret is shown once, a test event arrives signed with it', async () => {
  const { endpoint, secret } = await addEndpoint(['record.submitted']);
  // Standard Webhooks: whsec_ and base64 of at least 24 random bytes.
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
  expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
  const list = await api.as.admin!.get('api/integrations/endpoints/');
  expect(list.body.endpoints[0]).toMatchObject({ id: endpoint.id, url: receiver.url, enabled: true });
  expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));

  const sent = await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/test/`);
  expect(sent.status).toBe(202);
  await receiver.waitFor((all) => all.some((m) => m.id === sent.body.messageId));
  const message = receiver.received.find((m) => m.id === sent.body.messageId)!;
  expect(message.type).toBe('webhook.test');
  expect(WebhookReceiver.verify(message, secret)).toMatchObject({ type: 'webhook.test' });
  expect(() => WebhookReceiver.verify(message, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow();
  expect((await auditOf('webhook.created'))[0]).toMatchObject({
    actor: { name: 'admin1' },
    target: { label: receiver.url },
  });

  // Only admins: central_ops is refused, and the server says why.
  const refused = await api.as.ops!.get('api/integrations/endpoints/');
  expect([refused.status, refused.body.detail]).toEqual([403, 'Only an admin may manage integrations.']);
});

test('the audit entries of an endpoint name its address, events and enabled; refusals name the endpoint (docs/audit.md)', async () => {
  const { endpoint } = await addEndpoint(['shipment.ingested', 'case.opened']);
  expect((await auditOf('webhook.created'))[0]!.details).toEqual({
    after: { url: receiver.url, eventTypes: ['shipment.ingested', 'case.opened'], enabled: true },
  });
  // The same events in another order change nothing.
  const same = { url: receiver.url, eventTypes: ['case.opened', 'shipment.ingested'], enabled: true };
  expect((await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/`, same)).status).toBe(200);
  const { before, after } = (await auditOf('webhook.updated'))[0]!.details as Record<string, unknown>;
  expect(after).toEqual(before);
  // A refused change names the endpoint its path names, by its address; an unknown one by its id.
  expect((await api.as.ops!.post(`api/integrations/endpoints/${endpoint.id}/rotate/`)).status).toBe(403);
  expect((await api.as.ops!.post('api/integrations/endpoints/999999/delete/')).status).toBe(403);
  expect((await api.as.ops!.post('api/integrations/deliveries/999999/redeliver/')).status).toBe(403);
  const refusals = (await api.superAdmin.get('audit/?outcome=refused&limit=3')).body.entries;
  expect(refusals.map((entry: { action: string; target: unknown }) => [entry.action, entry.target])).toEqual([
    ['webhook.redelivered', { kind: 'webhook', id: null, label: 'delivery #999999' }],
    ['webhook.deleted', { kind: 'webhook', id: '999999', label: '#999999' }],
    ['webhook.secret-rotated', { kind: 'webhook', id: String(endpoint.id), label: receiver.url }],
  ]);
  expect((await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/delete/`)).status).toBe(200);
  expect((await auditOf('webhook.deleted'))[0]!.details).toEqual({
    before: { url: receiver.url, eventTypes: ['shipment.ingested', 'case.opened'], enabled: true },
  });
});

test('a flagging doorstep scan sends record.submitted, record.flagged and case.opened: thin, signed, each id once', async () => {
  const { secret } = await addEndpoint(['record.submitted', 'record.flagged', 'case.opened']);
  const [id] = await field.ship({ hub: 'HUB1' });
  const before = receiver.received.length;
  expect((await field.submit('op1', id!, { model: 'Galaxy S22' })).body.result).toBe('E007');
  await receiver.waitFor((all) => all.slice(before).filter((m) => m.data.trackingId === id).length === 3);
  const mine = receiver.received.slice(before).filter((m) => m.data.trackingId === id);
  expect(mine.map((m) => m.type).sort()).toEqual(['case.opened', 'record.flagged', 'record.submitted']);
  for (const message of mine) {
    expect(WebhookReceiver.verify(message, secret)).toBeTruthy();
    expect(Buffer.byteLength(message.body)).toBeLessThan(20 * 1024);
  }
  expect(new Set(mine.map((m) => m.id)).size).toBe(3);
  const submitted = mine.find((m) => m.type === 'record.submitted')!;
  expect(submitted.data).toMatchObject({
    trackingId: id,
    hubCode: 'HUB1',
    changed: { submittedBy: 'op1', submittedDeviceName: 'Galaxy S22', result: 'E007' },
  });
  expect(mine.find((m) => m.type === 'case.opened')!.data).toMatchObject({
    trackingId: id,
    reason: 'E007',
    state: 'open',
  });
});

test('a finished upload sends shipment.ingested once, in the transaction that finished it', async () => {
  const { secret } = await addEndpoint(['shipment.ingested']);
  const before = receiver.received.length;
  await field.ship({ hub: 'HUB1' }, { hub: 'HUB1' });
  await receiver.waitFor((all) => all.slice(before).some((m) => m.type === 'shipment.ingested'));
  const [message, ...more] = receiver.received.slice(before).filter((m) => m.type === 'shipment.ingested');
  expect(more).toEqual([]);
  expect(message!.data).toMatchObject({ fileName: 'shipment.csv', stored: 2, duplicates: 0, refused: 0 });
  expect(WebhookReceiver.verify(message!, secret)).toBeTruthy();
  // No console is sent it: the stream's events stay the documented ones.
  const stored = await api.db.kysely.selectFrom('events').select('type').where('type', '=', 'shipments').execute();
  expect(stored.length).toBeGreaterThan(0);
});

test('a rotation signs with both secrets until the old one expires, two at most', async () => {
  const { endpoint, secret: old } = await addEndpoint(['record.submitted']);
  const rotated = await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/rotate/`);
  expect(rotated.status).toBe(200);
  const fresh = rotated.body.secret as string;
  expect(fresh).not.toBe(old);
  expect(Date.parse(rotated.body.endpoint.previousSecretExpiresAt)).toBeGreaterThan(Date.now() + 23 * 3600_000);
  const sent = await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/test/`);
  await receiver.waitFor((all) => all.some((m) => m.id === sent.body.messageId));
  const message = receiver.received.find((m) => m.id === sent.body.messageId)!;
  expect(message.signature.split(' ')).toHaveLength(2);
  // A receiver holding either secret accepts it.
  expect(WebhookReceiver.verify(message, old)).toBeTruthy();
  expect(WebhookReceiver.verify(message, fresh)).toBeTruthy();
  // Rotated again within the 24 hours: the secret current until then signs beside the newest, the
  // one before it no longer (two signatures at most).
  const again = await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/rotate/`);
  const newest = again.body.secret as string;
  const next = await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/test/`);
  await receiver.waitFor((all) => all.some((m) => m.id === next.body.messageId));
  const twice = receiver.received.find((m) => m.id === next.body.messageId)!;
  expect(twice.signature.split(' ')).toHaveLength(2);
  expect(WebhookReceiver.verify(twice, fresh)).toBeTruthy();
  expect(WebhookReceiver.verify(twice, newest)).toBeTruthy();
  expect(() => WebhookReceiver.verify(twice, old)).toThrow();
  // Once the old secret expired, only the new one signs.
  await api.db.kysely
    .updateTable('webhook_endpoints')
    .set({ previous_expires_ms: Date.now() - 1 })
    .where('id', '=', endpoint.id)
    .execute();
  const later = await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/test/`);
  await receiver.waitFor((all) => all.some((m) => m.id === later.body.messageId));
  const single = receiver.received.find((m) => m.id === later.body.messageId)!;
  expect(single.signature.split(' ')).toHaveLength(1);
  expect(WebhookReceiver.verify(single, newest)).toBeTruthy();
  expect(() => WebhookReceiver.verify(single, fresh)).toThrow();
});

test('the receiver down for a while, then up: every event delivered, a duplicate only with the same webhook-id', async () => {
  await addEndpoint(['record.submitted']);
  const ids = await field.ship({ hub: 'HUB1' }, { hub: 'HUB1' }, { hub: 'HUB1' }, { hub: 'HUB1' });
  const before = receiver.received.length;
  let down = true;
  receiver.answer = () => (down ? { status: 500 } : { status: 200 });
  for (const id of ids) await field.submit('op1', id, {});
  // Failing: each message is tried again on the schedule.
  await receiver.waitFor((all) => all.slice(before).length >= ids.length * 2);
  down = false;
  await receiver.waitFor((all) => {
    const ok = new Set(
      all
        .slice(before)
        .filter((m) => m.type === 'record.submitted')
        .map((m) => m.data.trackingId),
    );
    return ids.every((id) => ok.has(id));
  });
  await eventually(
    async () => {
      const pending = await api.db.kysely
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('state', '=', 'pending')
        .execute();
      return pending.length === 0;
    },
    { withinMs: 10_000 },
  );
  const mine = receiver.received.slice(before).filter((m) => ids.includes(m.data.trackingId as string));
  // Every duplicate is the same message: one webhook-id per record, sent again.
  const idsByRecord = new Map<unknown, Set<string>>();
  for (const m of mine) idsByRecord.set(m.data.trackingId, (idsByRecord.get(m.data.trackingId) ?? new Set()).add(m.id));
  expect([...idsByRecord.values()].map((set) => set.size)).toEqual([1, 1, 1, 1]);
});

test('429 and 503 are tried again no sooner than their Retry-After', async () => {
  const { endpoint } = await addEndpoint(['record.submitted']);
  let calls = 0;
  receiver.answer = () => (++calls === 1 ? { status: 429, retryAfter: '2' } : { status: 200 });
  const sent = await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/test/`);
  await receiver.waitFor((all) => all.filter((m) => m.id === sent.body.messageId).length === 2, 10_000);
  const [first, second] = receiver.received.filter((m) => m.id === sent.body.messageId);
  // The schedule alone would have tried again after 100 ms.
  expect(Number(second!.timestamp) - Number(first!.timestamp)).toBeGreaterThanOrEqual(2);
});

test('410 disables the endpoint at once, recorded in the audit trail; failing for days disables it too', async () => {
  const gone = await addEndpoint(['record.submitted']);
  receiver.answer = () => ({ status: 410 });
  await api.as.admin!.post(`api/integrations/endpoints/${gone.endpoint.id}/test/`);
  await eventually(
    async () => {
      const list = (await api.as.admin!.get('api/integrations/endpoints/')).body.endpoints as Endpoint[];
      return list.find((e) => e.id === gone.endpoint.id)!.disabledReason === 'gone';
    },
    { withinMs: 10_000 },
  );
  expect((await auditOf('webhook.disabled'))[0]).toMatchObject({
    actor: { kind: 'system' },
    details: { reason: 'the endpoint answered 410 Gone' },
  });

  const failing = await addEndpoint(['record.submitted']);
  // Failing since before the hour the test server allows.
  await api.db.kysely
    .updateTable('webhook_endpoints')
    .set({ failing_since_ms: Date.now() - 2 * 60 * 60 * 1000 })
    .where('id', '=', failing.endpoint.id)
    .execute();
  receiver.answer = () => ({ status: 500 });
  await api.as.admin!.post(`api/integrations/endpoints/${failing.endpoint.id}/test/`);
  await eventually(
    async () => {
      const list = (await api.as.admin!.get('api/integrations/endpoints/')).body.endpoints as Endpoint[];
      const found = list.find((e) => e.id === failing.endpoint.id)!;
      return !found.enabled && found.disabledReason === 'failing';
    },
    { withinMs: 10_000 },
  );
});

test('the delivery log shows each attempt; a message is delivered again; failed ones are replayed', async () => {
  const { endpoint } = await addEndpoint(['record.submitted']);
  receiver.answer = () => ({ status: 500 });
  const started = new Date().toISOString();
  const sent = await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/test/`);
  // Every attempt of the (short) schedule fails: the delivery has failed.
  await eventually(
    async () => {
      const log = await api.as.admin!.get(`api/integrations/endpoints/${endpoint.id}/deliveries/?state=failed`);
      return log.body.deliveries.length === 1;
    },
    { withinMs: 20_000 },
  );
  const log = await api.as.admin!.get(`api/integrations/endpoints/${endpoint.id}/deliveries/`);
  const [delivery] = log.body.deliveries;
  expect(delivery).toMatchObject({ messageId: sent.body.messageId, type: 'webhook.test', state: 'failed' });
  expect(delivery.attempts).toHaveLength(SCHEDULE_MS.length + 1);
  expect(delivery.attempts[0]).toMatchObject({ status: 500, response: 'answered 500' });

  receiver.answer = () => ({ status: 200 });
  const again = await api.as.admin!.post(`api/integrations/deliveries/${delivery.id}/redeliver/`);
  expect(again.status).toBe(200);
  await eventually(
    async () => {
      const after = await api.as.admin!.get(`api/integrations/endpoints/${endpoint.id}/deliveries/`);
      return after.body.deliveries[0].state === 'succeeded';
    },
    { withinMs: 10_000 },
  );

  // Replay: every failed delivery since a time, the same webhook-ids again.
  await api.db.kysely
    .updateTable('webhook_deliveries')
    .set({ state: 'failed' })
    .where('endpoint_id', '=', endpoint.id)
    .execute();
  const replay = await api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/replay/`, { since: started });
  expect(replay.body).toEqual({ replayed: 1 });
  const count = receiver.received.filter((m) => m.id === sent.body.messageId).length;
  await receiver.waitFor((all) => all.filter((m) => m.id === sent.body.messageId).length === count + 1);
  expect((await auditOf('webhook.replayed'))[0]).toMatchObject({ details: { replayed: 1 } });
});

test('the OpenAPI document describes every message type in its webhooks section', async () => {
  const document = (await (await fetch(`${api.url}/veritas/openapi.json`)).json()) as {
    webhooks: Record<string, { post: { parameters: { name: string }[]; requestBody: unknown } }>;
  };
  expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, 'webhook.test'].sort());
  expect(document.webhooks['case.resolved']!.post.parameters.map((p) => p.name)).toEqual([
    'webhook-id',
    'webhook-timestamp',
    'webhook-signature',
  ]);
});

test("a refused address names its range in an admin's words, with its article", async () => {
  const strict = { allowLocal: false };
  for (const [host, range] of [
    ['10.1.2.3', 'a private'],
    ['169.254.169.254', 'a link-local'],
    ['[fd00::1]', 'a unique local'],
    ['100.64.0.1', 'a carrier-grade NAT'],
    ['0.0.0.0', 'an unspecified'],
    [new URL('https://[::127.0.0.1]/').hostname, 'an IPv4-compatible'],
    // A rarer special-purpose block keeps ipaddr.js's name for it.
    ['[2001:2::1]', 'a special-purpose (benchmarking)'],
  ] as const)
    await expect(resolveEndpoint(host, strict)).rejects.toThrow(` ${range} address: refused.`);
});

test('addresses outside the public internet, http://, and what is no URL are refused unless allowed, when added or moved to', async () => {
  const strict = { allowLocal: false };
  expect(urlProblem('http://example.com/hooks', strict)).toBe('The address must start with https://.');
  expect(urlProblem('https://user:pw@example.com/', strict)).toBe('The address may not hold a username or password.');
  for (const host of [
    '127.0.0.1',
    '10.1.2.3',
    '192.168.0.9',
    '169.254.169.254',
    '[::1]',
    '[fd00::1]',
    // IPv4-compatible IPv6 (deprecated), as a URL writes https://[::127.0.0.1]/'s host: ipaddr.js calls it unicast.
    new URL('https://[::127.0.0.1]/').hostname,
    'localhost',
    '0.0.0.0',
  ])
    await expect(resolveEndpoint(host, strict)).rejects.toThrow(/refused/);
  await expect(resolveEndpoint('127.0.0.1', { allowLocal: true })).resolves.toMatchObject({ address: '127.0.0.1' });
  // The screen's call answers 400 naming the field, on a server that does not allow them.
  const other = await api.start({ webhooksAllowLocal: false });
  try {
    const client = await signIn(other.url, 'admin1');
    const refused = await client.post('api/integrations/endpoints/', {
      url: 'https://169.254.169.254/latest/meta-data/',
      eventTypes: ['record.submitted'],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      field: 'url',
      detail: '169.254.169.254 resolves to 169.254.169.254, a link-local address: refused.',
    });
    // Not a URL of http:// or https:// with a host: the call's schema refuses it as the form does.
    for (const url of ['orders.example.com/hooks', 'ftp://orders.example.com/', 'https:///hooks']) {
      const malformed = await client.post('api/integrations/endpoints/', { url, eventTypes: ['record.submitted'] });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ field: 'url', detail: WEBHOOK_URL_FORMAT });
    }
    // A change that keeps an address made where it was allowed is not refused for it (it can still
    // be described or disabled); a change of the address is checked.
    const { endpoint } = await addEndpoint(['record.submitted']);
    const kept = await client.post(`api/integrations/endpoints/${endpoint.id}/`, {
      url: endpoint.url,
      eventTypes: ['record.submitted'],
      description: 'kept',
      enabled: false,
    });
    expect([kept.status, kept.body.description]).toEqual([200, 'kept']);
    const moved = await client.post(`api/integrations/endpoints/${endpoint.id}/`, {
      url: `${endpoint.url}/moved`,
      eventTypes: ['record.submitted'],
    });
    expect([moved.status, moved.body.field]).toEqual([400, 'url']);
  } finally {
    await other.close();
  }
});

test("an endpoint's events: an unknown one is named, even past the number of events; a repeated one is 'Name each event once.'", async () => {
  const { endpoint } = await addEndpoint(['record.submitted']);
  const unknown = (name: string) => `An event is one of ${WEBHOOK_EVENT_TYPES.join(', ')}; "${name}" is not.`;
  const cases: [string[], string][] = [
    [['record.deleted'], unknown('record.deleted')],
    // Nine where there are eight events: one unknown, told as such rather than as a repeat.
    [[...WEBHOOK_EVENT_TYPES, 'record.deleted'], unknown('record.deleted')],
    [[...WEBHOOK_EVENT_TYPES, 'case.opened', 'record.deleted'], unknown('record.deleted')],
    [['case.opened', 'case.opened'], 'Name each event once.'],
    [['case.opened', 'record.deleted', 'case.opened'], unknown('record.deleted')],
    [[...WEBHOOK_EVENT_TYPES, 'case.opened'], 'Name each event once.'],
    [[], 'Choose the events the endpoint receives.'],
  ];
  for (const [eventTypes, detail] of cases) {
    for (const path of ['api/integrations/endpoints/', `api/integrations/endpoints/${endpoint.id}/`]) {
      const answer = await api.as.admin!.post(path, { url: receiver.url, eventTypes });
      expect([path, eventTypes, answer.status, answer.body]).toEqual([
        path,
        eventTypes,
        400,
        { field: 'eventTypes', detail },
      ]);
    }
  }
});

test('two instances deliver many messages, never one attempt twice at once', async () => {
  const other = await api.start({
    webhooksAllowLocal: true,
    webhookDelivery: { scheduleMs: SCHEDULE_MS, timeoutMs: 2000 },
  });
  try {
    const { endpoint } = await addEndpoint(['record.submitted']);
    const before = receiver.received.length;
    const sent = await Promise.all(
      Array.from({ length: 40 }, () => api.as.admin!.post(`api/integrations/endpoints/${endpoint.id}/test/`)),
    );
    const ids = sent.map((s) => s.body.messageId as string);
    await receiver.waitFor((all) => ids.every((id) => all.some((m) => m.id === id)), 20_000);
    await sleep(500);
    const mine = receiver.received.slice(before).filter((m: Received) => ids.includes(m.id));
    // A healthy receiver gets each message once, and never two attempts of one at once.
    expect(mine).toHaveLength(ids.length);
    expect(mine.every((m) => m.concurrent === 0)).toBe(true);
  } finally {
    await other.close();
  }
});
