// PostgreSQL: the events inserted in one statement, so the lock (event-order.ts) is held a round
// trip less: the rows are made (and take their ids) only once the one-row subquery took it.
// pg_notify wakes every instance's hub at the commit.
import { sql } from 'kysely';
import { EVENTS_CHANNEL, EVENTS_LOCK } from './event-order';
import type { EventInserts } from './write';

export const postgresEventInserts: EventInserts = async (trx, _db, events, now) => {
  // Raw: the lock and the notification in the insert's FROM, and json_to_recordset, are beyond Kysely's builder.
  await sql`
    insert into events (type, data, created_ms)
    select event.type, event.data, ${now}::bigint
    from (select pg_advisory_xact_lock(${sql.lit(EVENTS_LOCK)}), pg_notify(${EVENTS_CHANNEL}, '')) as locked,
      json_to_recordset(${JSON.stringify(events)}::json) as event(type text, data text)`.execute(trx);
};
