// An instance killed mid-delivery (docs/webhooks.md#dispatcher): the server in a process of its own
// claims a delivery and sends it; the receiver holds that attempt unanswered and the process is
// killed; once its claim runs out, another instance on the same database delivers the message,
// with the same webhook-id. And the events are the outbox: none is pruned before the fan-out read it.
import { MAX_KEPT_EVENTS, pruneEvents } from '../src/events/repository';
import { migrateToLatest } from '../src/server';
import { startApiProcess } from './support/api-process';
import { build } from './support/build';
import { eventually } from '../../test-support/eventually';
import { WebhookReceiver } from './support/webhook-receiver';

// No server of this file's own until the first is killed: only the child can claim the delivery.
const api = build({ start: false });
const receiver = new WebhookReceiver();
afterAll(() => receiver.stop());

// First, while no server fans out: the place stays where the test puts it.
test('pruning keeps every event the fan-out has not read, beyond the replay window and the count', async () => {
  await migrateToLatest(api.db);
  const now = Date.now();
  const old = now - 60 * 60 * 1000;
  await api.db.kysely
    .insertInto('events')
    .values(Array.from({ length: 20 }, () => ({ type: 'groups' as const, data: '{}', created_ms: old })))
    .execute();
  const ids = (await api.db.kysely.selectFrom('events').select('id').orderBy('id').execute()).map((r) => Number(r.id));
  await api.db.kysely.updateTable('webhook_fan_out').set({ last_event_id: ids[9]! }).execute();
  await pruneEvents(api.db, now);
  // Out of the window, but only those read are gone (the newest is always kept).
  const kept = (await api.db.kysely.selectFrom('events').select('id').orderBy('id').execute()).map((r) => Number(r.id));
  expect(kept).toEqual(ids.slice(10));
  expect(MAX_KEPT_EVENTS).toBeGreaterThan(20);
});

test('an instance killed mid-delivery: another delivers the message once the claim runs out', async () => {
  await receiver.start();
  const { child } = await startApiProcess(api, { VERITAS_WEBHOOKS_ALLOW_LOCAL: '1' });
  try {
    const message = `msg_takeover_${Date.now()}`;
    // The first attempt is held unanswered: the child is killed while it waits.
    receiver.answer = (m) => (receiver.received.filter((r) => r.id === m.id).length === 1 ? 'hold' : { status: 200 });
    const now = Date.now();
    const { id } = await api.db.kysely
      .insertInto('webhook_endpoints')
      .values({
        url: receiver.url,
        description: 'takeover',
        event_types: 'record.submitted',
        enabled: 1,
        secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
        created_ms: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await api.db.kysely
      .insertInto('webhook_messages')
      .values({ id: message, type: 'webhook.test', body: '{"type":"webhook.test","data":{}}', created_ms: now })
      .execute();
    await api.db.kysely
      .insertInto('webhook_deliveries')
      .values({ message_id: message, endpoint_id: id, state: 'pending', next_attempt_ms: now, created_ms: now })
      .execute();
    await receiver.waitFor((all) => all.some((m) => m.id === message), 30_000);
    child.kill('SIGKILL');
    const killedAt = Date.now();

    await api.start({ webhooksAllowLocal: true });
    await receiver.waitFor((all) => all.filter((m) => m.id === message).length === 2, 40_000);
    // Not before the child's claim ran out: its attempt's timeout (15 s) and a margin.
    expect(Date.now() - killedAt).toBeGreaterThan(10_000);
    await eventually(
      async () => {
        const row = await api.db.kysely
          .selectFrom('webhook_deliveries')
          .select('state')
          .where('message_id', '=', message)
          .executeTakeFirstOrThrow();
        return row.state === 'succeeded';
      },
      { withinMs: 10_000 },
    );
  } finally {
    child.kill('SIGKILL');
  }
}, 90_000);
