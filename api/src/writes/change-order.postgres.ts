// PostgreSQL's change stamps (change-order.ts), also the columns' defaults (migration 022), so the
// upload's COPY stamps its rows too.
import type { ChangeStampSql } from './change-order';

export const postgresChangeStamps: ChangeStampSql = {
  // The writing transaction's id. Ids are taken in start order, not commit order: the feed reads
  // only below the oldest transaction still running (records-feed.postgres.ts), so no later commit
  // can land behind a cursor.
  change_order: '(pg_current_xact_id()::text::bigint)',
  // The statement's start: every row of one insert has one time, as one transaction id.
  changed_ms: '((extract(epoch from statement_timestamp()) * 1000)::bigint)',
};
