// Webhooks (src/webhooks/, docs/webhooks.md): the endpoints, the messages fanned out from the events
// table (the outbox: each event is written in its change's transaction), one delivery per message
// and endpoint, each attempt of it, and how far the fan-out has read the events.
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../schema';
import { addIdColumn } from './columns';

export function webhooks(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await addIdColumn(db.schema.createTable('webhook_endpoints'), engine)
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        // Space-separated, as an API key's scopes.
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('disabled_ms', 'bigint')
        // The signing secret must be read to sign: it is kept, not hashed (docs/webhooks.md#secrets).
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_expires_ms', 'bigint')
        .addColumn('failing_since_ms', 'bigint')
        .addColumn('created_by_id', 'integer')
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('webhook_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .execute();

      await addIdColumn(db.schema.createTable('webhook_deliveries'), engine)
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('endpoint_id', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // Due when pending; a claimed attempt pushes it past its timeout, so an instance that dies
        // mid-attempt leaves it due again for another (src/webhooks/outbox.ts).
        .addColumn('next_attempt_ms', 'bigint', (c) => c.notNull())
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['state', 'next_attempt_ms'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_endpoint')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'id'])
        .execute();

      await addIdColumn(db.schema.createTable('webhook_attempts'), engine)
        .addColumn('delivery_id', 'integer', (c) => c.notNull())
        .addColumn('at_ms', 'bigint', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_attempts_delivery')
        .on('webhook_attempts')
        .columns(['delivery_id', 'id'])
        .execute();

      // One row: the last event fanned out. Events are not pruned past it (events/repository.ts).
      await db.schema
        .createTable('webhook_fan_out')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('last_event_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.insertInto('webhook_fan_out').values({ id: 1, last_event_id: 0 }).execute();
    },
  };
}
