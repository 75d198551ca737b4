// Summary changes on SQLite (summary-tables.ts): multi-row inserts of a few fixed sizes on SQLite's
// own handle, prepared once per handle (Kysely would prepare every statement anew, which costs more
// than the inserts).
import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import type { SummaryWriter } from './summary-tables';

/** The row counts of the multi-row statements, largest first. */
const STATEMENT_ROWS = [64, 8, 1];
const PREPARED = new WeakMap<SQLiteDatabase, Map<string, Statement>>();

// The write's Kysely transaction holds the one connection: the handle writes inside it.
export const writeSqlite: SummaryWriter = (_trx, db, tables) => {
  const sqlite = db.sqlite!;
  let prepared = PREPARED.get(sqlite);
  if (!prepared) PREPARED.set(sqlite, (prepared = new Map()));
  for (const [table, rows] of tables) {
    const columns = table.columns.map(([column]) => column);
    for (let at = 0; at < rows.length;) {
      const size = STATEMENT_ROWS.find((count) => count <= rows.length - at)!;
      const text = `insert into ${table.name} (${columns.join(', ')}) values ${Array(size)
        .fill(`(${columns.map(() => '?').join(', ')})`)
        .join(', ')} ${table.onConflict}`;
      let statement = prepared.get(text);
      if (!statement) prepared.set(text, (statement = sqlite.prepare(text)));
      const parameters: unknown[] = [];
      for (const row of rows.slice(at, at + size))
        for (const column of columns) parameters.push((row as Record<string, unknown>)[column]);
      statement.run(parameters);
      at += size;
    }
  }
};
