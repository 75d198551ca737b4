// PostgreSQL: the append-only trigger lets a transaction delete entries once it says it prunes,
// in a transaction-local setting the trigger reads (migration 010).
import { sql } from 'kysely';
import type { EntryDeletion } from './retention';

export const postgresEntryDeletion: EntryDeletion = async (trx, work) => {
  // Raw: set_config, a function Kysely's builder does not have.
  await sql`select set_config('veritas.audit_retention', 'prune', true)`.execute(trx);
  const result = await work();
  await sql`select set_config('veritas.audit_retention', '', true)`.execute(trx);
  return result;
};
