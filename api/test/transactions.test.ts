// Db.transaction and, on PostgreSQL, Db.clientTransaction (src/db/connection.ts): a transaction
// whose connection drops before its COMMIT is run once more on a fresh connection; any other
// failure rolls it back and is thrown as it is; either way the connection goes back to the pool.
import { sql, type Kysely } from 'kysely';
import type { PoolClient } from 'pg';
import { migrateToLatest, openDatabase } from '../src/db/connection';
import { copyRows } from '../src/db/copy-rows';
import type { Database, Db } from '../src/db/schema';
import { ENGINE, freshDatabase, onPostgres, type FreshDatabase } from './support/database';

let fresh: FreshDatabase;
let db: Db;

beforeAll(async () => {
  fresh = await freshDatabase();
  db = openDatabase(fresh.options);
  await migrateToLatest(db);
  await sql`create table tally (n integer)`.execute(db.kysely);
});

afterAll(async () => {
  await db.kysely.destroy();
  await fresh.drop();
});

/**
 * Rejected with the missing table's error. Matched by its message, not with toThrow: better-sqlite3's
 * native part keeps the error class of the first test file that loaded it, so in a later file of
 * the same jest process the error is not an Error of that file's realm, and toThrow sees none.
 */
const failsOnMissingTable = (work: Promise<unknown>) =>
  expect(work).rejects.toMatchObject({ message: expect.stringMatching(/no_such_table/) });

const tally = async () =>
  Number((await sql<{ n: number }>`select count(*) as n from tally`.execute(db.kysely)).rows[0]!.n);

/** The kinds of transaction this engine has, each running `work` with a Kysely in the transaction. */
function kinds(): [string, (work: (trx: Kysely<Database>, client?: PoolClient) => Promise<void>) => Promise<void>][] {
  const kysely: ReturnType<typeof kinds>[number] = ['transaction', (work) => db.transaction((trx) => work(trx))];
  if (ENGINE === 'sqlite') return [kysely];
  return [kysely, ['clientTransaction', (work) => db.clientTransaction!((client, trx) => work(trx, client))]];
}

describe.each(kinds())('%s', (_, transaction) => {
  beforeEach(() => sql`delete from tally`.execute(db.kysely));

  test('its statements are committed together', async () => {
    await transaction(async (trx) => {
      await sql`insert into tally values (1)`.execute(trx);
      await sql`insert into tally values (2)`.execute(trx);
    });
    expect(await tally()).toBe(2);
  });

  test('a failure rolls it back and is thrown as it is, not repeated', async () => {
    let attempts = 0;
    const failing = transaction(async (trx) => {
      attempts++;
      await sql`insert into tally values (1)`.execute(trx);
      await sql`select * from no_such_table`.execute(trx);
    });
    await failsOnMissingTable(failing);
    expect(attempts).toBe(1);
    expect(await tally()).toBe(0);
    if (db.pg) expect(db.pg.totalCount - db.pg.idleCount).toBe(0);
  });

  onPostgres('a connection lost before COMMIT: run once more on a fresh connection, applied once', async () => {
    let attempts = 0;
    await transaction(async (trx) => {
      attempts++;
      await sql`insert into tally values (1)`.execute(trx);
      if (attempts === 1) await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx);
    });
    expect(attempts).toBe(2);
    expect(await tally()).toBe(1);
    expect(db.pg!.totalCount - db.pg!.idleCount).toBe(0);
  });
});

onPostgres(
  'clientTransaction: COPY on its client and Kysely statements on the same connection, in one transaction',
  async () => {
    await sql`delete from tally`.execute(db.kysely);
    await failsOnMissingTable(
      db.clientTransaction!(async (client, trx) => {
        await copyRows(client, 'tally', ['n'], [[1], [2], [3]][Symbol.iterator]());
        expect((await sql<{ n: string }>`select count(*) as n from tally`.execute(trx)).rows[0]!.n).toBe('3');
        await sql`select * from no_such_table`.execute(trx);
      }),
    );
    expect(await tally()).toBe(0);
  },
);
