// Waiting for the server's webhook fan-out (src/webhooks/outbox.ts) to catch up with the events.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema';
import { eventually } from '../../../test-support/eventually';

/** The id of the newest event written (0 with none). */
export async function newestEventId(db: Kysely<Database>): Promise<number> {
  return Number((await sql<{ n: string | null }>`select max(id) as n from events`.execute(db)).rows[0]!.n ?? 0);
}

/**
 * Resolves once the server's webhook fan-out (src/webhooks/outbox.ts) has read every event written
 * so far: it moves its place on a timer, so a test comparing the database before and after, or
 * pruning events, waits for it first.
 */
export async function fannedOut(db: Kysely<Database>): Promise<void> {
  const newest = await newestEventId(db);
  await eventually(async () => {
    const place = await db.selectFrom('webhook_fan_out').select('last_event_id').executeTakeFirstOrThrow();
    return Number(place.last_event_id) >= newest;
  });
}
