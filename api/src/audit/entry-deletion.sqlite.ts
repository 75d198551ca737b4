// SQLite: the append-only trigger is dropped and created again inside the pruning's transaction,
// so no other write ever runs without it (migration 010).
import { sql } from 'kysely';
import { SQLITE_AUDIT_TRIGGERS } from '../db/migrations/010-audit-log';
import type { EntryDeletion } from './retention';

export const sqliteEntryDeletion: EntryDeletion = async (trx, work) => {
  // Raw: DDL, which Kysely's schema builder has no trigger statements for.
  await sql`drop trigger audit_log_no_delete`.execute(trx);
  const result = await work();
  await sql.raw(SQLITE_AUDIT_TRIGGERS[1]!).execute(trx);
  return result;
};
