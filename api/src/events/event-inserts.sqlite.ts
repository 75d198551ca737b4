// SQLite: events inserted on SQLite's own handle, the statement prepared once (as the summaries'
// writes do); the Kysely transaction holds the one connection meanwhile. The hub of this process
// is woken through the in-process bus once the transaction is over.
import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import { wakeAfterCommit } from './wake-ups.sqlite';
import type { EventInserts } from './write';

const INSERTS = new WeakMap<SQLiteDatabase, Statement>();

export const sqliteEventInserts: EventInserts = async (_trx, db, events, now) => {
  const sqlite = db.sqlite!;
  let insert = INSERTS.get(sqlite);
  if (!insert)
    INSERTS.set(sqlite, (insert = sqlite.prepare('insert into events (type, data, created_ms) values (?, ?, ?)')));
  for (const event of events) insert.run(event.type, event.data, now);
  wakeAfterCommit(db);
};
