// Sign-in throttling by client address: failed sign-ins are kept per (client address, username)
// and counted per pair and per address (src/auth/login-throttle.ts). The table of 001 counted
// failures per username alone; its rows have no address and are at most 15 minutes old, so they
// are dropped with it.
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../schema';
import { addIdColumn } from './columns';

export function loginThrottle(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropTable('login_failures').execute();
      await addIdColumn(db.schema.createTable('login_failures'), engine)
        .addColumn('client_address', 'text', (c) => c.notNull())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('failed_at', 'text', (c) => c.notNull())
        .execute();
      // The pair rule, the address rule, and the deletion of failures older than the window.
      await db.schema
        .createIndex('login_failures_pair')
        .on('login_failures')
        .columns(['client_address', 'username', 'failed_at'])
        .execute();
      await db.schema
        .createIndex('login_failures_address')
        .on('login_failures')
        .columns(['client_address', 'failed_at'])
        .execute();
      await db.schema.createIndex('login_failures_failed_at').on('login_failures').column('failed_at').execute();
    },
  };
}
