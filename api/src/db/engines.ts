// Where PostgreSQL and SQLite differ, a feature keeps each engine's code in its own file
// (`<name>.postgres.ts`, `<name>.sqlite.ts`) behind one interface, and chooses between them here:
// no code outside db/ and those files branches on the engine (the lint rule of eslint.config.mjs).
// The few differences every feature meets (locks, the greatest of two values, a closed database)
// are answered here once.
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { Database, Db, Engine } from './schema';

/** The one of `choices` written for `db`'s engine. */
export function forEngine<T>(db: Pick<Db, 'engine'>, choices: Record<Engine, T>): T {
  return choices[db.engine];
}

/**
 * Holds the lock `key` (an arbitrary constant of the caller's, unique in the API) until `trx`
 * ends: on PostgreSQL an advisory lock, shared or exclusive; SQLite has one writer at a time,
 * which serializes writers already.
 */
export async function lockUntilCommit(
  trx: Kysely<Database>,
  db: Db,
  key: number,
  mode: 'exclusive' | 'shared' = 'exclusive',
): Promise<void> {
  if (db.engine !== 'postgres') return;
  // Raw: advisory locks are functions Kysely has no builder for.
  if (mode === 'shared') await sql`select pg_advisory_xact_lock_shared(${sql.lit(key)})`.execute(trx);
  else await sql`select pg_advisory_xact_lock(${sql.lit(key)})`.execute(trx);
}

/**
 * `query` locking the rows it reads until its transaction ends (FOR UPDATE) on PostgreSQL; SQLite
 * has no such clause, and its one writer at a time keeps others from changing them already.
 */
export function lockingRows<Query extends { forUpdate(): Query }>(db: Db, query: Query): Query {
  return db.engine === 'postgres' ? query.forUpdate() : query;
}

/**
 * `query` taking the rows it reads for this transaction and passing by those another holds (FOR
 * UPDATE SKIP LOCKED) on PostgreSQL, so instances share out work without waiting on each other;
 * SQLite's one writer at a time leaves nothing to pass by.
 */
export function claimingRows<Query extends { forUpdate(): Query; skipLocked(): Query }>(db: Db, query: Query): Query {
  return db.engine === 'postgres' ? query.forUpdate().skipLocked() : query;
}

/** The greatest of `values`: greatest() on PostgreSQL, the many-argument max() on SQLite. */
export function greatest(db: Db, ...values: Expression<unknown>[]): RawBuilder<number> {
  // Raw: neither function is in Kysely's builder.
  return sql<number>`${sql.raw(db.engine === 'postgres' ? 'greatest' : 'max')}(${sql.join(values)})`;
}

/** The database was closed (the server stopping): a failed query then means nothing is wrong. */
export const isClosed = (db: Db): boolean => (db.sqlite ? !db.sqlite.open : db.pg!.ending);
