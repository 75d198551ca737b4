// Opens the database: embedded SQLite under the data folder, or PostgreSQL when a URL is given.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Pool } from 'pg';
import { DEFAULT_MIGRATION_TABLE, Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { Database, Db } from './schema';
import { migrationsFor } from './migrations';

export interface DbOptions {
  dataDir: string;
  databaseUrl?: string;
}

export function openDatabase({ dataDir, databaseUrl }: DbOptions): Db {
  if (databaseUrl) {
    const pool = new Pool({ connectionString: databaseUrl, max: 10 });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
    return { engine: 'postgres', kysely: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pg: pool };
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const database = new SQLite(path.join(dataDir, 'veritas.sqlite'));
  // WAL lets readers (e.g. a long get_status stream) run while a write commits.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return {
    engine: 'sqlite',
    kysely: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }),
    sqlite: database,
  };
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
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
