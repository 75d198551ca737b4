// A dispatcher round that fails (src/webhooks/dispatcher.ts; the database away for a moment): the
// outcomes of the attempts that ended meanwhile wait for the next round while their claims hold,
// so the delivery log keeps every attempt and a delivered message is not sent again.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../src/db/schema';
import { migrateToLatest } from '../src/server';
import { WebhookDispatcher } from '../src/webhooks/dispatcher';
import { build } from './support/build';
import { eventually } from '../../test-support/eventually';
import { WebhookReceiver } from './support/webhook-receiver';

// No server: the test's dispatcher is the only one.
const api = build({ start: false });
const receiver = new WebhookReceiver();
let away = false;
let dispatcher: WebhookDispatcher | undefined;

afterAll(async () => {
  await dispatcher?.stop();
  await receiver.stop();
});

test('the outcomes of a round that failed are recorded by the next, and nothing is sent again', async () => {
  await migrateToLatest(api.db);
  await receiver.start();
  await api.db.kysely
    .insertInto('webhook_endpoints')
    .values({
      url: receiver.url,
      description: 'round failure',
      event_types: 'shipment.ingested',
      enabled: 1,
      secret: `whsec_${Buffer.alloc(32, 3).toString('base64')}`,
      created_ms: Date.now(),
    })
    .execute();
  // The database: away while the test says, for the dispatcher's transactions only.
  const flaky: Db = {
    ...api.db,
    transaction: (work, settings) =>
      away ? Promise.reject(new Error('database away')) : api.db.transaction(work, settings),
  };
  const failures: unknown[] = [];
  const log = { error: (entry: unknown) => failures.push(entry) } as unknown as FastifyBaseLogger;
  dispatcher = new WebhookDispatcher(
    flaky,
    { allowLocal: true, timeoutMs: 5000, scheduleMs: [100, 200], failingDisableMs: 60 * 60 * 1000 },
    log,
    null,
  );
  // The database goes away as the message arrives: the round after the attempt cannot record it.
  receiver.answer = () => {
    away = true;
    return { status: 200 };
  };
  await api.db.kysely
    .insertInto('events')
    .values({
      type: 'shipments',
      data: JSON.stringify({ uploadId: 'u1', fileName: 'a.csv', rows: 1, errors: 0 }),
      created_ms: Date.now(),
    })
    .execute();
  dispatcher.start();
  await eventually(() => receiver.received.length === 1 && failures.length > 0, { withinMs: 10_000 });
  // Long past the wake's 25 ms: the round after the attempt has run, and failed.
  await sleep(300);

  away = false;
  // The next round (the second's tick) records the attempt kept from the failed one.
  await eventually(
    async () => {
      const delivery = await api.db.kysely.selectFrom('webhook_deliveries').select('state').executeTakeFirst();
      return delivery?.state === 'succeeded';
    },
    { withinMs: 5000 },
  );
  const attempts = await api.db.kysely.selectFrom('webhook_attempts').select(['status']).execute();
  expect(attempts).toEqual([{ status: 200 }]);
  expect(receiver.received).toHaveLength(1);
});
