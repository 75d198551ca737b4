// Opens the database: embedded SQLite under the data folder, or PostgreSQL when a URL is given.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  DEFAULT_MIGRATION_TABLE,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type Dialect,
  type PostgresPoolClient,
  type SqliteDatabase,
} from 'kysely';
import type { Pool, PoolClient } from 'pg';
import type { Database, Db } from './schema';
import { migrationsFor } from './migrations';
import { DatabaseUnavailable, PatientPool, ReconnectingDriver, isConnectionError } from './availability';
import { sqliteReadsOffThread } from './sqlite-reads';

/**
 * The embedded database's folder: `dir` (VERITAS_DATA_DIR), default .veritas-data, a relative one
 * taken from where pnpm was run (INIT_CWD; `pnpm --filter api …` runs in api/), so the server and
 * the audit commands open one database.
 */
export function dataDirFrom(dir: string | undefined): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), dir || '.veritas-data');
}

export interface DbOptions {
  dataDir: string;
  databaseUrl?: string;
}

export function openDatabase({ dataDir, databaseUrl }: DbOptions): Db {
  if (databaseUrl) {
    const pool = new PatientPool({ connectionString: databaseUrl, max: 10 });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
    const postgres = new PostgresDialect({ pool });
    const dialect: Dialect = {
      createAdapter: () => postgres.createAdapter(),
      createDriver: () => new ReconnectingDriver(postgres.createDriver()),
      createIntrospector: (db) => postgres.createIntrospector(db),
      createQueryCompiler: () => postgres.createQueryCompiler(),
    };
    const kysely = new Kysely<Database>({ dialect });
    return {
      engine: 'postgres',
      kysely,
      reads: kysely,
      pg: pool,
      transaction: transactionOn(kysely),
      clientTransaction: clientTransactionOn(pool),
    };
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const database = new SQLite(path.join(dataDir, 'veritas.sqlite'));
  // WAL lets readers (e.g. a long get_status stream) run while a write commits.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  // A checkpoint every 64 MB of WAL instead of every 4 MB: each one syncs the WAL and the database
  // file, which cost an upload's batches a fifth of their time (api/README.md#upload). A server
  // checkpoints on a thread of its own long before that (checkpoints.ts); this is the fallback.
  database.pragma('wal_autocheckpoint = 16384');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: keepingStatements(database) }) });
  return {
    engine: 'sqlite',
    kysely,
    reads: sqliteReadsOffThread(database.name),
    sqlite: database,
    transaction: transactionOn(kysely),
  };
}

/** Closes `db`'s connections (on SQLite, its read thread's too). */
export async function closeDatabase(db: Db): Promise<void> {
  if (db.reads !== db.kysely) await db.reads.destroy();
  await db.kysely.destroy();
}

/** How many prepared statements keepingStatements keeps: more than the server's queries have texts. */
export const STATEMENTS_KEPT = 500;

/**
 * SQLite for Kysely with its prepared statements kept by SQL text, the least recently used
 * dropped past STATEMENTS_KEPT. Kysely's driver prepares every query anew, and neither it nor
 * better-sqlite3 keeps statements (hence this wrapper): preparing took about a sixth of the CPU
 * in a profile of the simulator (docs/benchmarks.md#what-opening-cases-costs). A statement still
 * being iterated (a stream) is not handed out again.
 */
export function keepingStatements(database: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      const statement = kept.get(sql);
      kept.delete(sql);
      const usable = statement && !statement.busy ? statement : database.prepare(sql);
      kept.set(sql, usable);
      if (kept.size > STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
      return usable;
    },
  };
}

/** One attempt at a transaction: what its work is given, and how it ends. */
interface TransactionAttempt<Handle> {
  handle: Handle;
  commit(): Promise<void>;
  /** Ends it without effect (its connection released); a connection already dead is no error here. */
  rollback(): Promise<void>;
}

/**
 * `work` in a transaction `begin` opens, run once more on a fresh connection when the first
 * attempt failed on its connection before the COMMIT was sent (nothing was applied). A connection
 * failing during the COMMIT leaves the outcome unknown: not repeated, DatabaseUnavailable(true).
 */
async function retriedTransaction<Handle, T>(
  begin: () => Promise<TransactionAttempt<Handle>>,
  work: (handle: Handle) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const retry = (error: unknown) => {
      if (!isConnectionError(error)) throw error;
      if (attempt > 1) throw new DatabaseUnavailable(false, { cause: error });
    };
    let transaction;
    try {
      transaction = await begin();
    } catch (error) {
      retry(error);
      continue;
    }
    let result: T;
    try {
      result = await work(transaction.handle);
    } catch (error) {
      await transaction.rollback();
      retry(error);
      continue;
    }
    try {
      await transaction.commit();
    } catch (error) {
      await transaction.rollback();
      throw isConnectionError(error) ? new DatabaseUnavailable(true, { cause: error }) : error;
    }
    return result;
  }
}

/** On a dropped connection the server has rolled back already, and ROLLBACK fails too. */
function unlessConnectionError(error: unknown): void {
  if (!isConnectionError(error)) throw error;
}

/** Db.transaction: a Kysely transaction. */
function transactionOn(kysely: Kysely<Database>): Db['transaction'] {
  return (work, { isolationLevel } = {}) =>
    retriedTransaction(async () => {
      const builder = kysely.startTransaction();
      const trx = await (isolationLevel ? builder.setIsolationLevel(isolationLevel) : builder).execute();
      return {
        handle: trx,
        commit: () => trx.commit().execute(),
        // Kysely releases the connection on ROLLBACK even when it fails, not on a failed COMMIT.
        rollback: () => trx.rollback().execute().catch(unlessConnectionError),
      };
    }, work);
}

/**
 * Kysely over one client checked out of the pool, for the statements of a transaction run on it by
 * hand: its owner releases the client, so Kysely's release does nothing.
 */
function kyselyOver(client: PoolClient): Kysely<Database> {
  const borrowed = { query: client.query.bind(client) as PostgresPoolClient['query'], release: () => undefined };
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: { connect: async () => borrowed, end: async () => undefined } }),
  });
}

/** Db.clientTransaction: BEGIN and COMMIT on a client of the pool, with a Kysely over it. */
function clientTransactionOn(pool: Pool): NonNullable<Db['clientTransaction']> {
  return (work) =>
    retriedTransaction(
      async () => {
        const client = await pool.connect();
        // A client whose connection failed is dropped by the pool rather than reused.
        const release = (error?: unknown) => client.release(isConnectionError(error) ? (error as Error) : undefined);
        try {
          await client.query('begin');
        } catch (error) {
          release(error);
          throw error;
        }
        return {
          handle: { client, trx: kyselyOver(client) },
          commit: async () => {
            await client.query('commit');
            release();
          },
          rollback: () =>
            client.query('rollback').then(
              () => release(),
              (error: unknown) => {
                client.release(true);
                unlessConnectionError(error);
              },
            ),
        };
      },
      ({ client, trx }) => work(client, trx),
    );
}

/**
 * The migrations this code has that the database has not applied (readiness: an instance must not
 * serve a database another instance has not finished migrating, nor one older than its code).
 * One read of Kysely's table, not Migrator.getMigrations(), which first checks (and creates) its
 * tables and lock row: too much for a probe called every few seconds.
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(
    db.kysely,
  );
  const applied = new Set(rows.map((row) => row.name));
  return Object.keys(migrationsFor(db.engine)).filter((name) => !applied.has(name));
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrationsFor(db.engine) },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (!error && !failed) return;
  // As it came, so that a start waits for a database it cannot reach yet (waitForDatabase).
  if (isConnectionError(error)) throw error;
  const what = failed ? `Database migration ${failed.migrationName} failed` : 'Database migrations failed';
  throw new Error(`${what}: ${String(error)}`, { cause: error });
}
