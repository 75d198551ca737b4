// Where a write of device_records stands in commit order, and when it was made (migration 022): what
// the records feed pages by (docs/integrations.md#records-feed, src/integrations/records-feed.ts).
// Every write stamps both, the upload's inserts and the field scans' updates alike, with SQL the
// database evaluates in the write (change-order.postgres.ts, change-order.sqlite.ts).
import { sql, type RawBuilder } from 'kysely';
import { forEngine } from '../db/engines';
import type { Db } from '../db/schema';
import { postgresChangeStamps } from './change-order.postgres';
import { sqliteChangeStamps } from './change-order.sqlite';

/** The two stamps as SQL text. */
export interface ChangeStampSql {
  change_order: string;
  changed_ms: string;
}

/** The stamps as the values of an UPDATE's SET. */
export function changeStamps(db: Pick<Db, 'engine'>): {
  change_order: RawBuilder<number>;
  changed_ms: RawBuilder<number>;
} {
  const { change_order, changed_ms } = forEngine(db, { postgres: postgresChangeStamps, sqlite: sqliteChangeStamps });
  return { change_order: sql.raw(change_order), changed_ms: sql.raw(changed_ms) };
}
