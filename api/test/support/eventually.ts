// Waiting in a test for what another thread, process or timer brings about.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema';

/**
 * Resolves once `condition` holds, checked every 10 ms; with `withinMs`, fails after that long
 * (otherwise the test's own timeout bounds it).
 */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  withinMs = Number.POSITIVE_INFINITY,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await sleep(10);
  }
}

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
