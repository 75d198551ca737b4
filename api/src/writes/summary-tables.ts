// Writing the changes of the summary tables (the pick list's, src/devices/summaries.ts, and the
// dashboard's, src/dashboard/summaries.ts) in the transaction of the write that made them. Each
// summary class hands over its changed rows per table; this writes them all:
//   - PostgreSQL: one statement, each table's rows one JSON parameter (json_to_recordset), so a
//     write costs one round trip for every summary however many rows it touches;
//   - SQLite: multi-row inserts of a few fixed sizes on SQLite's own handle, prepared once per
//     handle (Kysely would prepare every statement anew, which costs more than the inserts).
// Rows are applied table by table in one fixed order and, within a table, in key order (the
// summary classes sort them), so concurrent writes lock summary rows in one order and cannot
// deadlock on PostgreSQL.
import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';

export interface SummaryTable {
  name: keyof Database & string;
  /** Every column written, with its PostgreSQL type (for json_to_recordset). */
  columns: readonly (readonly [column: string, type: string])[];
  /** What a row whose key is already there does. */
  onConflict: string;
}

/** A table whose rows add `values` up by `keys`: a row of a key already there adds to it. */
export function additiveTable(
  name: SummaryTable['name'],
  keys: readonly (readonly [string, string])[],
  values: readonly string[],
  valueType = 'integer',
): SummaryTable {
  return {
    name,
    columns: [...keys, ...values.map((value) => [value, valueType] as const)],
    onConflict: `on conflict (${keys.map(([key]) => key).join(', ')}) do update set ${values
      .map((value) => `${value} = ${name}.${value} + excluded.${value}`)
      .join(', ')}`,
  };
}

/** Changed rows by table: objects keyed by the table's column names. */
export type SummaryRows = readonly (readonly [SummaryTable, readonly object[]])[];

/** Writes `changes` in `trx`, the transaction of the write (on SQLite, its one connection held). */
export async function writeSummaries(trx: Kysely<Database>, db: Db, changes: SummaryRows): Promise<void> {
  const tables = changes.filter(([, rows]) => rows.length > 0);
  if (tables.length === 0) return;
  if (db.sqlite) return writeSqlite(db.sqlite, tables);
  await trx.executeQuery(
    CompiledQuery.raw(
      postgresText(tables.map(([table]) => table)),
      tables.map(([, rows]) => JSON.stringify(rows)),
    ),
  );
}

const POSTGRES_TEXTS = new Map<string, string>();

/** One statement inserting into each table, in order, from its JSON parameter ($1, $2 …). */
function postgresText(tables: readonly SummaryTable[]): string {
  const signature = tables.map((table) => table.name).join(' ');
  let text = POSTGRES_TEXTS.get(signature);
  if (!text) {
    const inserts = tables.map(({ name, columns, onConflict }, i) => {
      const names = columns.map(([column]) => column).join(', ');
      const types = columns.map(([column, type]) => `${column} ${type}`).join(', ');
      return `t${i} as (insert into ${name} (${names}) select ${names} from json_to_recordset($${i + 1}::json) as r(${types}) ${onConflict})`;
    });
    POSTGRES_TEXTS.set(signature, (text = `with ${inserts.join(', ')} select 1`));
  }
  return text;
}

/** The row counts of SQLite's multi-row statements, largest first. */
const STATEMENT_ROWS = [64, 8, 1];
const PREPARED = new WeakMap<SQLiteDatabase, Map<string, Statement>>();

function writeSqlite(sqlite: SQLiteDatabase, tables: SummaryRows): void {
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
}
