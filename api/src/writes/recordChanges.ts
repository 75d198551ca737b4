// What every write of device_records does besides writing it, in its transaction: the derived
// columns computed again (derivedColumns.ts) and the record moved in the pick list's summaries
// (src/devices/summaries.ts) and the dashboard's (src/dashboard/summaries.ts). The upload adds
// its new records through RecordChanges; the field-scan engine changes a record with changeRecord.
import type { Kysely, Updateable } from 'kysely';
import type { Database, Db, DeviceRecordsTable } from '../db/schema';
import { DashboardChanges, rebuildDashboardSummaries } from '../dashboard/summaries';
import { PickListChanges, rebuildPickListSummaries } from '../devices/summaries';
import { DERIVED_COLUMNS, FACT_COLUMNS, MS_COLUMNS, derivedColumns, type DerivedColumns, type RecordFacts } from './derivedColumns';
import { writeSummaries } from './summaryTables';

/** What a write reads of a record before changing it: its facts, its submitter and its derived columns. */
export type RecordRow = RecordFacts & DerivedColumns & { id: number; submitted_by_id: number | null };

/** The columns of RecordRow, to select. */
export const RECORD_COLUMNS = ['id', 'submitted_by_id', ...FACT_COLUMNS, ...DERIVED_COLUMNS] as const;

type ReadRow = Omit<RecordRow, (typeof MS_COLUMNS)[number]> & { [K in (typeof MS_COLUMNS)[number]]: number | string | null };

/** A row of RECORD_COLUMNS as read: PostgreSQL answers bigint columns as text. */
export function recordRowOf<R extends ReadRow>(row: R): R & RecordRow {
  for (const column of MS_COLUMNS) {
    const value = row[column];
    if (typeof value === 'string') (row as Record<string, unknown>)[column] = Number(value);
  }
  return row as R & RecordRow;
}

/** The summaries' changes of one write, applied in its transaction. */
export class RecordChanges {
  private readonly pickList = new PickListChanges();
  private readonly dashboard = new DashboardChanges();

  /** Records stored, with their derived columns. */
  added(rows: readonly RecordRow[]): this {
    for (const row of rows) this.pickList.added(row.id, row.hub_code, row);
    this.dashboard.insertAll(rows);
    return this;
  }

  /** A record changed from `before` to `after`. */
  changed(before: RecordRow, after: RecordRow): this {
    this.pickList.changed(before, after);
    this.dashboard.change(before, after);
    return this;
  }

  /** Writes the changes in `trx`, the transaction of the write. */
  apply(trx: Kysely<Database>, db: Db): Promise<void> {
    return writeSummaries(trx, db, [...this.pickList.tables(), ...this.dashboard.tables()]);
  }
}

/** The fields a write sets; the derived columns follow from them. */
export type RecordFields = Omit<Updateable<DeviceRecordsTable>, 'id' | keyof DerivedColumns>;

/**
 * Changes record `before` (read in `trx` and, on PostgreSQL, locked with `for update`, so nothing
 * changes it until the transaction ends; SQLite has one writer at a time) by `fields`: one UPDATE
 * of the fields and of the derived columns they move, then the summaries. Returns the record after.
 */
export async function changeRecord(trx: Kysely<Database>, db: Db, before: RecordRow, fields: RecordFields): Promise<RecordRow> {
  const merged = { ...before, ...fields } as RecordRow;
  const after: RecordRow = { ...merged, ...derivedColumns(merged) };
  const moved = DERIVED_COLUMNS.filter((column) => after[column] !== before[column]);
  await trx
    .updateTable('device_records')
    .set({ ...fields, ...Object.fromEntries(moved.map((column) => [column, after[column]])) })
    .where('id', '=', before.id)
    .execute();
  await new RecordChanges().changed(before, after).apply(trx, db);
  return after;
}

/** Every summary computed afresh from device_records: after a bulk load, whose rows were not counted one by one. */
export async function rebuildSummaries(db: Db): Promise<void> {
  await rebuildPickListSummaries(db.kysely);
  await rebuildDashboardSummaries(db);
}
