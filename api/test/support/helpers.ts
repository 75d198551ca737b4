// Test support: a fresh database per test file, a real server on an ephemeral port, and an
// HTTP client with a cookie jar that echoes the XSRF cookie like the console does.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { hashPassword } from '../../src/auth/passwords';
import { openDatabase } from '../../src/db/connection';
import { createServer, type ServerOptions } from '../../src/index';

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
    // Suites log in far more often than a person; the rate-limit test sets its own limit.
    loginRateLimitPerMinute: 10_000,
    ...options,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close };
}

interface StoredCookie {
  value: string;
  path: string;
  attributes: string;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
  /** Raw Set-Cookie lines of this answer. */
  setCookies: string[];
}

export class Client {
  readonly cookies = new Map<string, StoredCookie>();

  constructor(private readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  async request<T = any>(
    method: string,
    apiPath: string,
    { body, xsrf, headers = {} }: { body?: unknown; xsrf?: string | false; headers?: Record<string, string> } = {},
  ): Promise<Answer<T>> {
    // FormData bodies go as they are: fetch sets the multipart content type with its boundary.
    const json = body !== undefined && !(body instanceof FormData);
    const urlPath = `/veritas/${apiPath}`;
    const cookieHeader = [...this.cookies]
      .filter(([, c]) => urlPath.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
    const token = xsrf === undefined ? this.cookie('XSRF-TOKEN') : xsrf;
    const response = await fetch(this.baseUrl + urlPath, {
      method,
      headers: {
        ...(cookieHeader ? { cookie: cookieHeader } : {}),
        ...(json ? { 'content-type': 'application/json' } : {}),
        ...(method !== 'GET' && token ? { 'x-xsrf-token': token } : {}),
        ...headers,
      },
      body: json ? JSON.stringify(body) : (body as FormData | undefined),
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) this.store(line);
    const raw = await response.text();
    let parsed: unknown = raw;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body: parsed as T, headers: response.headers, setCookies };
  }

  get<T = any>(apiPath: string, options?: { headers?: Record<string, string> }) {
    return this.request<T>('GET', apiPath, options);
  }

  post<T = any>(apiPath: string, body: unknown = {}, options: { xsrf?: string | false } = {}) {
    return this.request<T>('POST', apiPath, { body, ...options });
  }

  /** A multipart POST like the console's upload: the fields first, then the file part. */
  postMultipart<T = any>(
    apiPath: string,
    fields: Record<string, string | number>,
    file: { name: string; content: string | Uint8Array },
    options: { xsrf?: string | false } = {},
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
    form.append('file', new Blob([file.content], { type: 'text/csv' }), file.name);
    return this.request<T>('POST', apiPath, { body: form, ...options });
  }

  /** Like the console: a GET first to receive the XSRF cookie, then the login call. */
  async login(username: string, password = PASSWORD): Promise<Answer> {
    if (!this.cookie('XSRF-TOKEN')) await this.get('user/is_LoggedIn/');
    return this.post('user/login/', { username, password });
  }

  private store(line: string) {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attr = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.split('=')[1];
    const expires = attr('expires');
    const expired = attr('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now());
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, { value, path: attr('path') ?? '/', attributes: attributes.join('; ') });
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

/**
 * Sends a file to api/upload/ as the console does: chunks of chunkSize bytes, one call each, in
 * order, under a fresh upload_id; stops at the first refused chunk. The last answer is the result.
 */
export async function uploadCsv(client: Client, fileName: string, content: string | Buffer, chunkSize = 1_048_576): Promise<Answer[]> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const totalChunks = Math.max(1, Math.ceil(bytes.length / chunkSize));
  const uploadId = crypto.randomUUID();
  const answers: Answer[] = [];
  for (let index = 0; index < totalChunks; index++) {
    const chunk = bytes.subarray(index * chunkSize, (index + 1) * chunkSize);
    const answer = await client.postMultipart('api/upload/', { upload_id: uploadId, chunk_index: index, total_chunks: totalChunks }, { name: fileName, content: chunk });
    answers.push(answer);
    if (answer.status >= 400) break;
  }
  return answers;
}

/** Adds a user straight to the database: the API itself never creates admins. */
export async function insertUser(database: FreshDatabase, username: string, role: string): Promise<void> {
  const db = openDatabase(database.options);
  try {
    await db.kysely
      .insertInto('users')
      .values({ username, email: `${username}@example.com`, password_hash: await hashPassword(PASSWORD), role, group_id: null, created_at: new Date().toISOString() })
      .execute();
  } finally {
    await db.kysely.destroy();
  }
}
