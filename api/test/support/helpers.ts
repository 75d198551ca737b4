// Test support: a fresh database per test file, a real server on an ephemeral port, and an
// HTTP client with a cookie jar that echoes the XSRF cookie like the console does.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@veritas/shared/domain';
import { Client as PgClient } from 'pg';
import { hashPassword } from '../../src/auth/passwords';
import { openDatabase } from '../../src/db/connection';
import { createServer, type ServerOptions } from '../../src/index';
import { WebClient, type Answer } from '../../sim/webClient';

export { uploadCsv, type Answer } from '../../sim/webClient';

export const ENGINE = (globalThis as { __VERITAS_ENGINE__?: string }).__VERITAS_ENGINE__ === 'postgres' ? 'postgres' : 'sqlite';
export const ADMIN_USERNAME = 'root_admin';
export const ADMIN_PASSWORD = 'Root-Admin-Pass-1';
export const PASSWORD = 'Test-Pass-123';

export interface FreshDatabase {
  options: { dataDir: string; databaseUrl?: string };
  drop(): Promise<void>;
}

/** An empty database: a temp folder for SQLite, a new database on the test cluster for PostgreSQL. */
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

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(database: FreshDatabase, options: ServerOptions = {}): Promise<TestServer> {
  const { app, close } = await createServer({
    ...database.options,
    logger: false,
    demo: false,
    adminUsername: ADMIN_USERNAME,
    adminPassword: ADMIN_PASSWORD,
    ...options,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close };
}


/** The web client with the tests' password as the default one. */
export class Client extends WebClient {
  override login(username: string, password = PASSWORD): Promise<Answer> {
    return super.login(username, password);
  }
}

/** Signs in a new client, failing the test when the login does not open a session. */
export async function signIn(baseUrl: string, username: string, password = PASSWORD): Promise<Client> {
  const client = new Client(baseUrl);
  const answer = await client.login(username, password);
  if (answer.status !== 200 || answer.body.is_webview !== true) {
    throw new Error(`login of ${username} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return client;
}

/** Creates groups and users through the API as the bootstrap super_admin. */
export async function seed(
  baseUrl: string,
  groups: { code: string; organization: 'hub' | 'RC' }[],
  users: { username: string; role: string; group?: string }[],
): Promise<Client> {
  const admin = await signIn(baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
  for (const group of groups) {
    const answer = await admin.post('user/create_group/', { name: group.code, ...group });
    if (answer.status !== 201) throw new Error(`group ${group.code}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  const organizationOf = new Map(groups.map((g) => [g.code, g.organization]));
  for (const user of users) {
    const answer = await admin.post('user/create/', {
      username: user.username,
      email: `${user.username}@example.com`,
      password: PASSWORD,
      role: user.role,
      group: user.group ?? '',
      organization: user.group ? organizationOf.get(user.group) : '',
    });
    if (answer.status !== 201) throw new Error(`user ${user.username}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return admin;
}

/** Adds a user straight to the database: the API itself never creates admins. */
export async function insertUser(database: FreshDatabase, username: string, role: string): Promise<void> {
  const db = openDatabase(database.options);
  try {
    await db.kysely
      .insertInto('users')
      .values({ username, email: `${username}@example.com`, password_hash: await hashPassword(PASSWORD), role: role as Role, group_id: null, created_at: new Date().toISOString() })
      .execute();
  } finally {
    await db.kysely.destroy();
  }
}
