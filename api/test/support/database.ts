// A fresh, empty database for a test file: a temp folder for SQLite, a new database on the test
// cluster for PostgreSQL (the jest project decides which, jest.config.cjs).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as PgClient } from 'pg';

export const ENGINE =
  (globalThis as { __VERITAS_ENGINE__?: string }).__VERITAS_ENGINE__ === 'postgres' ? 'postgres' : 'sqlite';

/** A test of one engine's own behaviour: run by that engine's jest project, reported skipped by the other. */
export const onPostgres = ENGINE === 'postgres' ? test : test.skip;
export const onSqlite = ENGINE === 'sqlite' ? test : test.skip;

export interface FreshDatabase {
  /** What createServer and openDatabase take to reach it. */
  options: { dataDir: string; databaseUrl?: string };
  drop(): Promise<void>;
}

export async function freshDatabase(): Promise<FreshDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-test-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (ENGINE === 'sqlite') return { options: { dataDir }, drop: async () => removeDir() };

  const base = process.env.VERITAS_TEST_PG_URL;
  if (!base) throw new Error('VERITAS_TEST_PG_URL is not set (the jest global setup should set it)');
  const name = `veritas_test_${crypto.randomBytes(6).toString('hex')}`;
  await withPg(base, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    options: { dataDir, databaseUrl: url.toString() },
    drop: async () => {
      await withPg(base, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      removeDir();
    },
  };
}

async function withPg<T>(url: string, work: (client: PgClient) => Promise<T>): Promise<T> {
  const client = new PgClient({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
