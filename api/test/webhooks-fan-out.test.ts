// The dispatcher's fan-out (src/webhooks/outbox.ts). Within one round, on its own: pages are read
// while they come full, and a short page ends the round's fan-out. Over the database: the fan-out
// claims the deliveries it makes, as far as its lease has room, and leaves the rest due for any
// instance; a round claims the deliveries already due before its new ones.
import { migrateToLatest } from '../src/server';
import { claimDue, claimRound, FAN_OUT_PAGE, fanOut, fanOutWhileFull } from '../src/webhooks/outbox';
import { build } from './support/build';

// No server: nothing but the test fans out.
const api = build({ start: false });

/** A page reader answering `pages` in turn (then empty pages), counting its reads. */
function pagesOf(pages: number[]) {
  const reader = { reads: 0, read: async () => pages[reader.reads++] ?? 0 };
  return reader;
}

describe('fanOutWhileFull', () => {
  test('a full page is followed by another in the same round', async () => {
    const reader = pagesOf([FAN_OUT_PAGE, FAN_OUT_PAGE, 7]);
    await fanOutWhileFull(reader.read, () => false);
    expect(reader.reads).toBe(3);
  });

  test('a short page ends the fan-out: events committed meanwhile wait for the next round', async () => {
    const reader = pagesOf([7, 7, 7]);
    await fanOutWhileFull(reader.read, () => false);
    expect(reader.reads).toBe(1);
  });

  test('an empty page ends it too', async () => {
    const reader = pagesOf([FAN_OUT_PAGE, 0, 7]);
    await fanOutWhileFull(reader.read, () => false);
    expect(reader.reads).toBe(2);
  });

  test('a dispatcher that stops reads no further page', async () => {
    const reader = pagesOf([FAN_OUT_PAGE, FAN_OUT_PAGE, FAN_OUT_PAGE]);
    await fanOutWhileFull(reader.read, () => reader.reads >= 2);
    expect(reader.reads).toBe(2);
  });
});

describe('fanOut over the database', () => {
  const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
  let endpoint: number;

  beforeAll(async () => {
    await migrateToLatest(api.db);
    const { id } = await api.db.kysely
      .insertInto('webhook_endpoints')
      .values({
        url: 'https://receiver.example/hooks',
        description: 'fan-out',
        event_types: 'shipment.ingested',
        enabled: 1,
        secret: SECRET,
        created_ms: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    endpoint = id;
  });

  /** `count` shipments events, one shipment.ingested message each. */
  async function shipmentsEvents(count: number, tag: string) {
    const data = (i: number) => JSON.stringify({ uploadId: `${tag}-${i}`, fileName: 'a.csv', rows: 1, errors: 0 });
    await api.db.kysely
      .insertInto('events')
      .values(Array.from({ length: count }, (_, i) => ({ type: 'shipments' as const, data: data(i), created_ms: 1 })))
      .execute();
  }

  const dueOf = async (ids: number[]) =>
    (
      await api.db.kysely
        .selectFrom('webhook_deliveries')
        .select(['id', 'next_attempt_ms'])
        .where('id', 'in', ids)
        .execute()
    ).map((row) => Number(row.next_attempt_ms));

  test('the fan-out claims the deliveries it makes as far as its lease has room, and leaves the rest due', async () => {
    await shipmentsEvents(5, 'room');
    const now = Date.now();
    const lease = { until: now + 20_000, limit: 3 };
    const page = await api.db.transaction((trx) => fanOut(trx, api.db, now, lease));
    expect(page.events).toBe(5);
    expect(page.claimed).toHaveLength(3);
    expect(page.leftDue).toBe(true);
    for (const delivery of page.claimed) {
      expect(delivery).toMatchObject({
        endpointId: endpoint,
        url: 'https://receiver.example/hooks',
        secrets: [SECRET],
      });
      expect(delivery.messageId).toMatch(/^msg_/);
      expect(JSON.parse(delivery.body)).toMatchObject({ type: 'shipment.ingested' });
    }
    expect(await dueOf(page.claimed.map((d) => d.id))).toEqual([lease.until, lease.until, lease.until]);
    // The two it had no room for are any instance's to claim, now; the claimed ones are not.
    const others = await api.db.transaction((trx) => claimDue(trx, api.db, now, { until: now + 20_000, limit: 10 }));
    expect(others).toHaveLength(2);
    expect(others.map((d) => d.id)).not.toContain(page.claimed[0]!.id);
  });

  test('with room for all, nothing is left due', async () => {
    await shipmentsEvents(2, 'all');
    const now = Date.now();
    const page = await api.db.transaction((trx) => fanOut(trx, api.db, now, { until: now + 20_000, limit: 32 }));
    expect(page).toMatchObject({ events: 2, leftDue: false });
    expect(page.claimed).toHaveLength(2);
    expect(await api.db.transaction((trx) => claimDue(trx, api.db, now, { until: now, limit: 10 }))).toEqual([]);
  });

  test('a round claims the deliveries already due first, oldest first, and its new ones in the room left', async () => {
    await shipmentsEvents(3, 'backlog');
    const before = Date.now() - 1000;
    // Three deliveries left due by an earlier fan-out without room.
    await api.db.transaction((trx) => fanOut(trx, api.db, before, { until: before + 20_000, limit: 0 }));
    await shipmentsEvents(2, 'new');
    const now = Date.now();
    const round = await api.db.transaction((trx) =>
      claimRound(trx, api.db, now, { until: now + 20_000, limit: 4 }, true),
    );
    expect(round.others.map((d) => JSON.parse(d.body).data.uploadId).sort()).toEqual([
      'backlog-0',
      'backlog-1',
      'backlog-2',
    ]);
    expect(round.page.claimed.map((d) => JSON.parse(d.body).data.uploadId)).toEqual(['new-0']);
    expect(round.page.leftDue).toBe(true);
    // With nothing known to be due, no claim is made but the fan-out's.
    await shipmentsEvents(1, 'later');
    const later = await api.db.transaction((trx) =>
      claimRound(trx, api.db, now, { until: now + 20_000, limit: 4 }, false),
    );
    expect(later.others).toEqual([]);
    expect(later.page.claimed.map((d) => JSON.parse(d.body).data.uploadId)).toEqual(['later-0']);
  });
});
