// SQLite reads on a thread of their own (src/db/sqlite-reads.ts): a long read leaves the event loop
// free for other requests; a transaction's reads share one snapshot while the server's connection
// writes, and it writes nothing itself.
import { sql } from 'kysely';
import { sqliteReadsOffThread } from '../src/db/sqlite-reads';
import { openDatabase } from '../src/server';
import { freshDatabase, onSqlite } from './support/build';

/** A read that takes a while: SQLite counting a few million rows of a recursive sequence. */
const LONG_READ = sql<{ n: number }>`
  with recursive sequence(i) as (select 1 union all select i + 1 from sequence where i < 3000000)
  select count(*) as n from sequence`;

async function withDatabase(test: (file: string, db: ReturnType<typeof openDatabase>) => Promise<void>) {
  const fresh = await freshDatabase();
  const db = openDatabase(fresh.options);
  try {
    await test(db.sqlite!.name, db);
  } finally {
    await db.kysely.destroy();
    await fresh.drop();
  }
}

onSqlite('a long read on the read thread leaves the event loop turning', async () => {
  await withDatabase(async (file) => {
    const reads = sqliteReadsOffThread(file);
    try {
      let turns = 0;
      let reading = true;
      const turning = (async () => {
        while (reading) {
          await new Promise(setImmediate);
          turns++;
        }
      })();
      const answer = await LONG_READ.execute(reads);
      reading = false;
      await turning;
      expect(answer.rows[0]!.n).toBe(3_000_000);
      // On the server's own connection the same read would give the loop no turn until it ended.
      expect(turns).toBeGreaterThan(10);
    } finally {
      await reads.destroy();
    }
  });
});

onSqlite("a transaction's reads share one snapshot while the server's connection writes", async () => {
  await withDatabase(async (file, db) => {
    db.sqlite!.exec('create table tally (n integer)');
    const reads = sqliteReadsOffThread(file);
    try {
      const seen = await reads.transaction().execute(async (trx) => {
        const first = await sql<{ c: number }>`select count(*) as c from tally`.execute(trx);
        db.sqlite!.exec('insert into tally values (1)');
        const second = await sql<{ c: number }>`select count(*) as c from tally`.execute(trx);
        return [first.rows[0]!.c, second.rows[0]!.c];
      });
      expect(seen).toEqual([0, 0]);
      const after = await sql<{ c: number }>`select count(*) as c from tally`.execute(reads);
      expect(after.rows[0]!.c).toBe(1);
      // Reads only: the thread's connection refuses to write.
      await expect(sql`insert into tally values (2)`.execute(reads)).rejects.toThrow(/readonly/);
    } finally {
      await reads.destroy();
    }
  });
});
