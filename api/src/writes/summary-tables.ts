// Writing the changes of the summary tables (the pick list's, src/devices/pick-list-summaries.ts, and the
// dashboard's, src/dashboard/dashboard-summaries.ts) in the transaction of the write that made them. Each
// summary class hands over its changed rows per table; this writes them all, as each engine does
// it fastest (summary-tables.postgres.ts, summary-tables.sqlite.ts).
// Rows are applied table by table in one fixed order and, within a table, in key order (the
// summary classes sort them), so concurrent writes lock summary rows in one order and cannot
// deadlock on PostgreSQL.
import type { Kysely } from 'kysely';
import { forEngine } from '../db/engines';
import type { Database, Db } from '../db/schema';
import { writePostgres } from './summary-tables.postgres';
import { writeSqlite } from './summary-tables.sqlite';

export interface SummaryTable {
  name: keyof Database & string;
  /** Every column written, with its PostgreSQL type (for json_to_recordset). */
  columns: readonly (readonly [column: string, type: string])[];
  /** What a row whose key is already there does. */
  onConflict: string;
}

/** A summary table whose rows add up values by a key: its key's column names besides. */
export interface AdditiveTable<Key extends string> extends SummaryTable {
  keys: readonly Key[];
}

/** A table whose rows add `values` up by `keys`: a row of a key already there adds to it. */
export function additiveTable<const Key extends string>(
  name: SummaryTable['name'],
  keys: readonly (readonly [Key, string])[],
  values: readonly string[],
  valueType = 'integer',
): AdditiveTable<Key> {
  const keyNames = keys.map(([key]) => key);
  return {
    name,
    keys: keyNames,
    columns: [...keys, ...values.map((value) => [value, valueType] as const)],
    onConflict: `on conflict (${keyNames.join(', ')}) do update set ${values
      .map((value) => `${value} = ${name}.${value} + excluded.${value}`)
      .join(', ')}`,
  };
}

/** Changed rows by table: objects keyed by the table's column names. */
export type SummaryRows = readonly (readonly [SummaryTable, readonly object[]])[];

/** Writes non-empty tables' rows in `trx` (summary-tables.postgres.ts, summary-tables.sqlite.ts). */
export type SummaryWriter = (trx: Kysely<Database>, db: Db, tables: SummaryRows) => Promise<void> | void;

/** Writes `changes` in `trx`, the transaction of the write (on SQLite, its one connection held). */
export async function writeSummaries(trx: Kysely<Database>, db: Db, changes: SummaryRows): Promise<void> {
  const tables = changes.filter(([, rows]) => rows.length > 0);
  if (tables.length === 0) return;
  await forEngine(db, { postgres: writePostgres, sqlite: writeSqlite })(trx, db, tables);
}
