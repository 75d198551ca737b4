// A start waits for a database it cannot reach yet, within DATABASE_WAIT_SECONDS
// (docs/operations.md#starting): only connection failures are tried again, one line each; a
// migration that fails is told, naming it, and not tried again.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { waitForDatabase } from '../src/db/availability';
import { createServer, migrateToLatest, openDatabase, reportStartFailure } from '../src/server';
import { StartRefused } from '../src/start-refused';
import { closeDatabase } from '../src/db/connection';
import { freshDatabase, onPostgres } from './support/build';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
const startingUp = Object.assign(new Error('the database system is starting up'), { code: '57P03' });

/** A clock that the pauses move on, and the lines logged. */
function simulated() {
  let now = 0;
  const lines: string[] = [];
  return {
    lines,
    options: (limitSeconds: number) => ({
      limitSeconds,
      log: (line: string) => lines.push(line),
      now: () => now,
      sleep: async (ms: number) => {
        now += ms;
      },
    }),
  };
}

describe('waiting for the database at start', () => {
  test('a connection failure is tried again, 1 s then every 2 s, one line each, until the database answers', async () => {
    const clock = simulated();
    const failures = [refused, startingUp, refused];
    const attempt = jest.fn(async () => {
      const failure = failures.shift();
      if (failure) throw failure;
      return 'migrated';
    });
    expect(await waitForDatabase(attempt, clock.options(60))).toBe('migrated');
    expect(attempt).toHaveBeenCalledTimes(4);
    expect(clock.lines).toEqual([
      'Database not reachable (ECONNREFUSED); trying again in 1 s',
      'Database not reachable (the database system is starting up); trying again in 2 s',
      'Database not reachable (ECONNREFUSED); trying again in 2 s',
    ]);
  });

  test('past DATABASE_WAIT_SECONDS the start fails, saying why and what to check', async () => {
    const clock = simulated();
    const attempt = jest.fn(async () => {
      throw refused;
    });
    await expect(waitForDatabase(attempt, clock.options(5))).rejects.toThrow(
      'The database was not reachable within 5 s (ECONNREFUSED): check DATABASE_URL, or give it longer with DATABASE_WAIT_SECONDS.',
    );
    // At 0, 1, 3 and 5 s; a pause to 7 s would end past the limit.
    expect(attempt).toHaveBeenCalledTimes(4);
    expect(clock.lines).toHaveLength(3);
    // 0 tries once.
    await expect(waitForDatabase(attempt, simulated().options(0))).rejects.toThrow('within 0 s (ECONNREFUSED)');
  });

  test('any other failure, a migration that fails, is thrown at once and never tried again', async () => {
    const clock = simulated();
    const failed = new Error('Database migration 024_webhooks failed: error: permission denied for schema public');
    const attempt = jest.fn(async () => {
      throw failed;
    });
    await expect(waitForDatabase(attempt, clock.options(60))).rejects.toBe(failed);
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(clock.lines).toEqual([]);
  });
});

describe('a migration that fails', () => {
  test('is named', async () => {
    const database = await freshDatabase();
    const db = openDatabase(database.options);
    try {
      // A table of the first migration there already, as no migration expects.
      await sql`create table users (id integer)`.execute(db.kysely);
      await expect(migrateToLatest(db)).rejects.toThrow(/^Database migration 001_initial failed: .*users/);
    } finally {
      await closeDatabase(db);
      await database.drop();
    }
  });

  test('outside any migration says "Database migrations failed"', async () => {
    const database = await freshDatabase();
    const db = openDatabase(database.options);
    try {
      await migrateToLatest(db);
      // Older code on a database a newer one migrated.
      await sql`insert into kysely_migration (name, timestamp) values ('999_newer', ${new Date().toISOString()})`.execute(
        db.kysely,
      );
      await expect(migrateToLatest(db)).rejects.toThrow(
        /^Database migrations failed: Error: corrupted migrations: previously executed migration 999_newer is missing/,
      );
    } finally {
      await closeDatabase(db);
      await database.drop();
    }
  });
});

onPostgres(
  'an instance started against a PostgreSQL nobody answers waits DATABASE_WAIT_SECONDS, a line each try, then exits 1',
  async () => {
    // src/start-api.ts in a process of its own; nothing listens on port 9 (discard).
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/start-api.ts'], {
      cwd: path.join(__dirname, '..'),
      env: {
        ...process.env,
        PORT: '0',
        DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
        DATABASE_WAIT_SECONDS: '4',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));

    expect(exitCode).toBe(1);
    // Each try keeps connecting for 3 s, as every connection does: tries at 0 and about 4 s.
    expect(output).toContain('Database not reachable (ECONNREFUSED); trying again in 1 s\n');
    expect(output).toContain(
      'The database was not reachable within 4 s (ECONNREFUSED): check DATABASE_URL, or give it longer with DATABASE_WAIT_SECONDS.',
    );
    expect(output).not.toMatch(/Server listening|Database migration/);
    // The message says it all: printed alone, without the error's stack.
    expect(output).not.toMatch(/^\s+at /m);
  },
);

describe('the whole numbers a start reads from its environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  test.each([
    ['DATABASE_WAIT_SECONDS', '-1', 'DATABASE_WAIT_SECONDS must be a whole number of seconds, 0 or more'],
    ['DATABASE_WAIT_SECONDS', '2.5', 'DATABASE_WAIT_SECONDS must be a whole number of seconds, 0 or more'],
    ['VERITAS_REGISTRY_KEEP', '0', 'VERITAS_REGISTRY_KEEP must be a whole number, 1 or more'],
    ['VERITAS_API_KEY_RATE', 'many', 'VERITAS_API_KEY_RATE must be a whole number, 1 or more'],
    ['VERITAS_AUDIT_RETENTION_DAYS', '0', 'VERITAS_AUDIT_RETENTION_DAYS must be a whole number of days, 1 or more'],
  ])('%s=%s refuses to start: %s', async (name, value, message) => {
    process.env[name] = value;
    await expect(createServer({ logger: false })).rejects.toThrow(message);
  });

  test('a refused start is printed as its message alone; any other failure with its stack', () => {
    const printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      reportStartFailure(new StartRefused('VERITAS_REGISTRY_KEEP must be a whole number, 1 or more'));
      const bug = new TypeError('x is not a function');
      reportStartFailure(bug);
      expect(printed.mock.calls).toEqual([['VERITAS_REGISTRY_KEEP must be a whole number, 1 or more'], [bug]]);
    } finally {
      printed.mockRestore();
    }
  });

  test('VERITAS_AUDIT_RETENTION_DAYS out of range is a refused start', async () => {
    process.env.VERITAS_AUDIT_RETENTION_DAYS = '0';
    await expect(createServer({ logger: false })).rejects.toBeInstanceOf(StartRefused);
  });
});
