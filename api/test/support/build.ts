// build(): what an API test file needs, set up by one call at its top (fastify/demo's build(t),
// with jest's hooks): a fresh database, a real server on an ephemeral port over it, the groups and
// users the file names, and clients signed in as they are used; all of it removed after the file.
//
//   const api = build({ groups: [{ code: 'HUB1', organization: 'hub' }],
//                       users: [{ username: 'exec1', role: 'executive', group: 'HUB1' }],
//                       signIn: { executive: 'exec1' } });
//   test('…', async () => { expect((await api.as.executive.get('user/get_role/')).status).toBe(200); });
import type { HelmetOptions } from 'helmet';
import type { Organization, Role } from '@veritas/shared/domain';
import { securityHeaders } from '../../../scripts/deployment.cjs';
import { hashPassword } from '../../src/auth/password-hashing';
import { openDatabase } from '../../src/db/connection';
import { addSecurityHeaders } from '../../src/plugins/security-headers';
import type { Db } from '../../src/db/schema';
import { createServer, type ServerOptions, type VeritasServer } from '../../src/server';
import { WebClient, type Answer, type WebClientOptions } from '../../sim/web-client';
import { freshDatabase, type FreshDatabase } from './database';

export { ENGINE, freshDatabase, onPostgres, onSqlite } from './database';
export { uploadCsv, type Answer } from '../../sim/web-client';

/** The bootstrap super_admin of every test server. */
export const ADMIN_USERNAME = 'root_admin';
export const ADMIN_PASSWORD = 'Root-Admin-Pass-1';
/** The password of every user build() creates. */
export const PASSWORD = 'Test-Pass-123';

/** The web client, signing in with the tests' passwords unless told otherwise. */
export class Client extends WebClient {
  override login(
    username: string,
    password = username === ADMIN_USERNAME ? ADMIN_PASSWORD : PASSWORD,
  ): Promise<Answer> {
    return super.login(username, password);
  }
}

/** A new client of the server at `baseUrl`, signed in as `username`; fails when no session opens. */
export async function signIn(baseUrl: string, username: string, password?: string): Promise<Client> {
  const client = new Client(baseUrl);
  const answer = await client.login(username, password);
  if (answer.status !== 200 || answer.body.is_webview !== true) {
    throw new Error(`login of ${username} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return client;
}

export interface BuildOptions {
  /** Groups, created through user/create_group/. */
  groups?: { code: string; organization: Organization }[];
  /**
   * Users with the password PASSWORD, in this order: through user/create/ as the super_admin,
   * admins straight into the database (the API never creates admins).
   */
  users?: { username: string; role: Role; group?: string }[];
  /** Clients signed in before the tests, by the name the tests use (`api.as.admin`). */
  signIn?: Record<string, string>;
  /** Options of the server: { seed: demoSeed }, { apkPath }… */
  server?: ServerOptions;
  /** false: no server, the file starts its own with start(). */
  start?: boolean;
}

export interface TestServer {
  url: string;
  /** What createServer exports for scripts/serve.mjs. */
  registry: VeritasServer['registry'];
  /** What it printed while starting (banners), kept out of the test output. */
  output: string;
  close(): Promise<void>;
}

export interface TestApi {
  /** The server's base URL. */
  readonly url: string;
  /** This file's database, as the server sees it. */
  readonly db: Db;
  /** How to reach this file's database (openDatabase, createServer). */
  readonly database: FreshDatabase['options'];
  /** The bootstrap super_admin, signed in. */
  readonly superAdmin: Client;
  /** The clients named by `signIn`. */
  readonly as: Record<string, Client>;
  /** What the server printed while starting (banners). */
  readonly startOutput: string;
  /** A client without a session. */
  client(options?: WebClientOptions): Client;
  /** A new client signed in as `username`; fails the test when no session opens. */
  signIn(username: string, password?: string): Promise<Client>;
  /** A user without a group straight into the database, with the password PASSWORD. */
  insertUser(username: string, role: Role): Promise<void>;
  /** Another server on this file's database, closed after the file unless the test closes it. */
  start(options?: ServerOptions): Promise<TestServer>;
}

export function build(options: BuildOptions = {}): TestApi {
  let database: FreshDatabase | undefined;
  let db: Db | undefined;
  let main: TestServer | undefined;
  let superAdmin: Client | undefined;
  const servers: TestServer[] = [];
  const as: Record<string, Client> = {};

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`${what} exists once build()'s beforeAll has run (and with a server unless start: false)`);
    return value;
  };

  const api: TestApi = {
    get url() {
      return ready(main, 'The server').url;
    },
    get db() {
      return ready(db, 'The database');
    },
    get database() {
      return ready(database, 'The database').options;
    },
    get superAdmin() {
      return ready(superAdmin, 'The super_admin client');
    },
    as,
    get startOutput() {
      return ready(main, 'The server').output;
    },
    client: (clientOptions) => new Client(api.url, clientOptions),
    signIn: (username, password) => signIn(api.url, username, password),
    async insertUser(username, role) {
      const password_hash = await hashPassword(PASSWORD);
      await api.db.kysely
        .insertInto('users')
        .values({
          username,
          email: `${username}@example.com`,
          password_hash,
          role,
          group_id: null,
          created_at: new Date().toISOString(),
        })
        .execute();
    },
    async start(serverOptions = {}) {
      const [{ app, registry, sendPageDocument }, output] = await printed(() =>
        createServer({
          ...api.database,
          logger: false,
          adminUsername: ADMIN_USERNAME,
          adminPassword: ADMIN_PASSWORD,
          ...serverOptions,
        }),
      );
      // With the shell's document: every other path answers the page document, under the
      // console's security headers, as scripts/serve.mjs serves it.
      if (serverOptions.shellDocument !== undefined) {
        await app.register(async (consoleScope) => {
          // deployment.cjs's options, typed by inference from plain JavaScript (policy: string).
          addSecurityHeaders(consoleScope, securityHeaders() as HelmetOptions);
          consoleScope.setNotFoundHandler(sendPageDocument);
        });
      }
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      const server: TestServer = {
        url: `http://127.0.0.1:${port}`,
        registry,
        output,
        async close() {
          const index = servers.indexOf(server);
          if (index === -1) return;
          servers.splice(index, 1);
          await app.close();
        },
      };
      servers.push(server);
      return server;
    },
  };

  beforeAll(async () => {
    database = await freshDatabase();
    db = openDatabase(database.options);
    if (options.start === false) return;

    main = await api.start(options.server);
    superAdmin = await api.signIn(ADMIN_USERNAME);
    await seed(api, options);
    for (const [name, username] of Object.entries(options.signIn ?? {})) as[name] = await api.signIn(username);
    // The demo data runs 45 days of field work through the engine, every step a transaction with
    // its summaries and its event: on PostgreSQL on a busy 2-core machine that took 130 s to over
    // 180 s, as fast or slow as the machine's hour.
  }, 360_000);

  afterAll(async () => {
    for (const server of [...servers]) await server.close();
    await db?.kysely.destroy();
    await database?.drop();
  });

  return api;
}

/** What `work` prints with console.log, kept out of the test output. */
async function printed<T>(work: () => Promise<T>): Promise<[T, string]> {
  const lines: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  try {
    return [await work(), lines.join('\n')];
  } finally {
    log.mockRestore();
  }
}

async function seed(api: TestApi, { groups = [], users = [] }: BuildOptions): Promise<void> {
  for (const group of groups) {
    const answer = await api.superAdmin.post('user/create_group/', { name: group.code, ...group });
    if (answer.status !== 201) throw new Error(`group ${group.code}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  const organizationOf = new Map(groups.map((g) => [g.code, g.organization]));
  for (const user of users) {
    if (user.role === 'admin' || user.role === 'super_admin') {
      await api.insertUser(user.username, user.role);
      continue;
    }
    const answer = await api.superAdmin.post('user/create/', {
      username: user.username,
      email: `${user.username}@example.com`,
      password: PASSWORD,
      role: user.role,
      group: user.group ?? '',
      organization: user.group ? organizationOf.get(user.group) : '',
    });
    if (answer.status !== 201)
      throw new Error(`user ${user.username}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}
