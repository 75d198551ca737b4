// API keys (docs/integrations.md#rate-limit): each access token counts its calls in a window of a
// minute, on its own row, so every instance of a fleet counts the same calls.
import type { Kysely, Migration } from 'kysely';

export function tokenRateWindow(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('access_tokens').addColumn('window_start_ms', 'bigint').execute();
      await db.schema
        .alterTable('access_tokens')
        .addColumn('window_calls', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
