// SQLite's WAL checkpoints on a thread of their own (src/db/checkpoints.ts): what a write commits
// reaches the database file without the writing connection checkpointing it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Database as SQLiteDatabase } from 'better-sqlite3';
import { sqliteCheckpoints } from '../src/db/checkpoints';
import { openDatabase } from '../src/server';
import { build, freshDatabase, onSqlite } from './support/build';
import { eventually } from '../../test-support/eventually';

const MIB = 1_048_576;

/**
 * Commits 1 MiB into the WAL through `sqlite`, which never checkpoints it itself; answers the
 * database file's size before, and the size it reaches once the commit is checkpointed: the MiB
 * more, less the free pages the commit may reuse (a migration that rebuilt a table leaves some).
 */
function commitMebibyte(sqlite: SQLiteDatabase): { before: number; checkpointed: number } {
  sqlite.pragma('wal_autocheckpoint = 0');
  sqlite.exec('create table if not exists filler (data blob)');
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const free =
    Number(sqlite.pragma('freelist_count', { simple: true })) * Number(sqlite.pragma('page_size', { simple: true }));
  const before = fs.statSync(sqlite.name).size;
  sqlite.prepare('insert into filler (data) values (randomblob(?))').run(MIB);
  return { before, checkpointed: before + MIB - free };
}

onSqlite('SQLite checkpoints: a commit reaches the database file from the worker thread, not the writer', async () => {
  const fresh = await freshDatabase();
  const db = openDatabase(fresh.options);
  try {
    const { before, checkpointed } = commitMebibyte(db.sqlite!);
    expect(fs.statSync(db.sqlite!.name).size).toBe(before);
    const checkpoints = sqliteCheckpoints(db);
    checkpoints.start();
    try {
      await eventually(() => fs.statSync(db.sqlite!.name).size >= checkpointed, { withinMs: 5000 });
    } finally {
      await checkpoints.stop();
    }
  } finally {
    await db.kysely.destroy();
    await fresh.drop();
  }
});

onSqlite('SQLite checkpoints: stop() ends the worker in a process that has nothing else to do', async () => {
  const fresh = await freshDatabase();
  const db = openDatabase(fresh.options);
  try {
    // The worker does not keep a process alive, yet one awaiting stop() must not exit before it ends.
    const script = `
      const { openDatabase } = require('./src/db/connection.ts');
      const { sqliteCheckpoints } = require('./src/db/checkpoints.ts');
      const db = openDatabase(${JSON.stringify(fresh.options)});
      const checkpoints = sqliteCheckpoints(db);
      checkpoints.start();
      checkpoints.stop().then(() => console.log('stopped'));`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: path.join(__dirname, '..'),
      encoding: 'utf8',
    });
    expect(output.trim()).toBe('stopped');
  } finally {
    await db.kysely.destroy();
    await fresh.drop();
  }
});

describe('a server on SQLite', () => {
  const api = build();

  onSqlite(
    'SQLite checkpoints: the server copies what another connection committed into the database file',
    async () => {
      const db = openDatabase(api.database);
      try {
        const { checkpointed } = commitMebibyte(db.sqlite!);
        await eventually(() => fs.statSync(db.sqlite!.name).size >= checkpointed, { withinMs: 5000 });
      } finally {
        await db.kysely.destroy();
      }
    },
  );
});
