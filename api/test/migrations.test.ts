// Start-up: versioned migrations, admin bootstrap and configuration from the environment.
import { Migrator, sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../src/server';
import { migrationsFor } from '../src/db/migrations';
import { ADMIN_PASSWORD, ADMIN_USERNAME, Client, build, freshDatabase, onPostgres } from './support/build';

/** A fresh database; each test starts the servers it needs on it. */
const api = build({ start: false });

describe('migrations', () => {
  test('are idempotent: starting twice on the same database applies each migration once and keeps the data', async () => {
    const first = await api.start();
    const admin = new Client(first.url);
    expect((await admin.login(ADMIN_USERNAME, ADMIN_PASSWORD)).status).toBe(200);
    expect((await admin.post('user/create_group/', { name: 'KEEP1', code: 'KEEP1', organization: 'hub' })).status).toBe(
      201,
    );
    await first.close();

    const second = await api.start();
    try {
      const again = new Client(second.url);
      expect((await again.login(ADMIN_USERNAME, ADMIN_PASSWORD)).status).toBe(200);
      expect((await again.get('user/get_groups/')).body).toContainEqual({
        name: 'KEEP1',
        code: 'KEEP1',
        organization: 'hub',
      });
    } finally {
      await second.close();
    }

    await migrateToLatest(api.db);
    const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(api.db.kysely);
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrationsFor(api.db.engine)));
  });
});

describe('005_login_throttle', () => {
  test("replaces a database's login_failures of 004 (per username) with failures per client address and username", async () => {
    const older = await freshDatabase();
    const db = openDatabase(older.options);
    try {
      const migrator = new Migrator({
        db: db.kysely,
        provider: { getMigrations: async () => migrationsFor(db.engine) },
      });
      expect((await migrator.migrateTo('004_field_scans')).error).toBeUndefined();
      await sql`insert into login_failures (username, failed_at) values ('someone', ${new Date().toISOString()})`.execute(
        db.kysely,
      );
      await migrateToLatest(db);
      expect(await db.kysely.selectFrom('login_failures').selectAll().execute()).toEqual([]);
      await db.kysely
        .insertInto('login_failures')
        .values({ client_address: '127.0.0.1', username: 'someone', failed_at: new Date().toISOString() })
        .execute();
      expect(await db.kysely.selectFrom('login_failures').select(['client_address', 'username']).execute()).toEqual([
        { client_address: '127.0.0.1', username: 'someone' },
      ]);
    } finally {
      await db.kysely.destroy();
      await older.drop();
    }
  });
});

describe('015_summaries_fillfactor', () => {
  onPostgres(
    'on PostgreSQL the summary tables added to in place leave 30% of each page for the new versions of their rows',
    async () => {
      const fresh = await freshDatabase();
      const db = openDatabase(fresh.options);
      try {
        await migrateToLatest(db);
        const { rows } = await sql<{ relname: string; reloptions: string[] | null }>`
        select relname, reloptions from pg_class
        where relname in ('device_counts', 'dashboard_counts', 'dashboard_operators', 'dashboard_series', 'device_records')
        order by relname`.execute(db.kysely);
        expect(rows).toEqual([
          { relname: 'dashboard_counts', reloptions: ['fillfactor=70'] },
          { relname: 'dashboard_operators', reloptions: ['fillfactor=70'] },
          { relname: 'dashboard_series', reloptions: ['fillfactor=70'] },
          { relname: 'device_counts', reloptions: ['fillfactor=70'] },
          { relname: 'device_records', reloptions: null },
        ]);
      } finally {
        await db.kysely.destroy();
        await fresh.drop();
      }
    },
  );
});

describe('admin bootstrap', () => {
  test('creates the super_admin only when no user has that name; a later start does not change its password', async () => {
    const server = await api.start({ adminPassword: 'a-different-password' });
    try {
      expect((await new Client(server.url).login(ADMIN_USERNAME, 'a-different-password')).status).toBe(401);
      const client = new Client(server.url);
      expect((await client.login(ADMIN_USERNAME, ADMIN_PASSWORD)).body).toEqual({
        is_webview: true,
        role: 'super_admin',
      });
    } finally {
      await server.close();
    }
  });

  test('without a password, generates one and prints it in a banner on stdout', async () => {
    const server = await api.start({ adminUsername: 'generated_admin', adminPassword: undefined });
    try {
      const banner = server.output;
      const password = /password: (\S+)/.exec(banner)?.[1];
      expect(banner).toMatch(/username: generated_admin/);
      expect(password).toBeDefined();
      expect((await new Client(server.url).login('generated_admin', password)).body).toEqual({
        is_webview: true,
        role: 'super_admin',
      });
    } finally {
      await server.close();
    }
  });
});

describe('configuration from the environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  test('VERITAS_ADMIN_USERNAME/PASSWORD name the bootstrap admin', async () => {
    process.env.VERITAS_ADMIN_USERNAME = 'env_admin';
    process.env.VERITAS_ADMIN_PASSWORD = 'Env-Admin-Pass-9';
    const server = await api.start({ adminUsername: undefined, adminPassword: undefined });
    try {
      const client = new Client(server.url);
      expect((await client.login('env_admin', 'Env-Admin-Pass-9')).body).toEqual({
        is_webview: true,
        role: 'super_admin',
      });
    } finally {
      await server.close();
    }
  });
});
