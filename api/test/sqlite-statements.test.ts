// SQLite's prepared statements kept by SQL text for Kysely (src/db/connection.ts keepingStatements).
import SQLite from 'better-sqlite3';
import { keepingStatements, STATEMENTS_KEPT } from '../src/db/connection';

function database() {
  const sqlite = new SQLite(':memory:');
  sqlite.exec('create table t (n integer)');
  sqlite.exec('insert into t values (1), (2), (3)');
  return { sqlite, kept: keepingStatements(sqlite) };
}

describe('SQLite statements kept for Kysely', () => {
  test('a statement is prepared once per SQL text and answers each use with its own parameters', () => {
    const { sqlite, kept } = database();
    const first = kept.prepare('select n from t where n > ?');
    expect(kept.prepare('select n from t where n > ?')).toBe(first);
    expect(first.all([1])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(kept.prepare('select n from t where n > ?').all([2])).toEqual([{ n: 3 }]);
    sqlite.close();
  });

  test('a statement still being iterated (a stream) is not handed out again', () => {
    const { sqlite, kept } = database();
    const streaming = kept.prepare('select n from t');
    const rows = streaming.iterate([]);
    rows.next();
    const other = kept.prepare('select n from t');
    expect(other).not.toBe(streaming);
    expect(other.all([])).toHaveLength(3);
    rows.return!();
    sqlite.close();
  });

  test('past STATEMENTS_KEPT texts the least recently used is dropped, the recently used kept', () => {
    const { sqlite, kept } = database();
    const oldest = kept.prepare('select 0');
    const used = kept.prepare('select 1');
    for (let n = 2; n < STATEMENTS_KEPT; n++) kept.prepare(`select ${n}`);
    expect(kept.prepare('select 0')).toBe(oldest); // used again: now the most recent
    kept.prepare(`select ${STATEMENTS_KEPT}`); // one past: 'select 1' is the least recently used
    expect(kept.prepare('select 0')).toBe(oldest);
    expect(kept.prepare('select 1')).not.toBe(used);
    sqlite.close();
  });
});
