// The dashboard's figures on PostgreSQL (figures.ts). PostgreSQL counts in its own processes: a few
// calls at once leave the pool's other connections to the rest of the API.
import { sql } from 'kysely';
import type { FiguresEngine } from './figures';

export const postgresFigures: FiguresEngine = {
  callsAtOnce: 3,
  // A repeatable-read transaction, without JIT compilation (compiling takes longer than these queries).
  inSnapshot: (db, read) =>
    db.transaction(
      async (trx) => {
        // Raw: Kysely has no builder for SET.
        await sql`set local jit = off`.execute(trx);
        await read(trx);
      },
      { isolationLevel: 'repeatable read' },
    ),
};
