// What every write of device_records does besides writing it, in its transaction: the derived
// columns computed again (derived-columns.ts), the record moved in the pick list's summaries
// (src/devices/pick-list-summaries.ts) and the dashboard's (src/dashboard/dashboard-summaries.ts), and the event
// stream's events (src/events/, docs/events.md#records). The upload adds its new records through
// RecordChanges; the field scans change a record with changeRecord.
import type { RecordsEvent } from '@veritas/shared/domain';
import type { Kysely, Updateable } from 'kysely';
import type { Database, Db, DeviceRecordsTable, StatusKey } from '../db/schema';
import { DashboardChanges, rebuildDashboardSummaries } from '../dashboard/dashboard-summaries';
import { PickListChanges, rebuildPickListSummaries } from '../devices/pick-list-summaries';
import { writeEvents, type NewEvent } from '../events/write';
import { recordJsonOf } from '../devices/record-json';
import {
  DERIVED_COLUMNS,
  FACT_COLUMNS,
  MS_COLUMNS,
  derivedColumns,
  type DerivedColumns,
  type RecordFacts,
} from './derived-columns';
import { changeStamps } from './change-order';
import { writeSummaries } from './summary-tables';

/** What a write reads of a record before changing it: its facts, its submitter and its derived columns. */
export type RecordRow = RecordFacts & DerivedColumns & { id: number; submitted_by_id: number | null };

/** The columns of RecordRow, to select. */
export const RECORD_COLUMNS = ['id', 'submitted_by_id', ...FACT_COLUMNS, ...DERIVED_COLUMNS] as const;

type ReadRow = Omit<RecordRow, (typeof MS_COLUMNS)[number]> & {
  [K in (typeof MS_COLUMNS)[number]]: number | string | null;
};

/** A row of RECORD_COLUMNS as read: PostgreSQL answers bigint columns as text. */
export function recordRowOf<R extends ReadRow>(row: R): R & RecordRow {
  for (const column of MS_COLUMNS) {
    const value = row[column];
    if (typeof value === 'string') (row as Record<string, unknown>)[column] = Number(value);
  }
  return row as R & RecordRow;
}

/**
 * The action of a changed record's event: the status it has after the change. Every change is
 * sent, one that leaves the status as it was too (a resubmission is 'submitted' again: its result
 * and capture changed on screen); no write returns a record to pending.
 */
const ACTIONS: Readonly<Record<StatusKey, Exclude<RecordsEvent['action'], 'uploaded'> | null>> = {
  pending: null,
  submitted: 'submitted',
  verified: 'verified',
  detached: 'detached',
};

/** The summaries' changes and the events of one write, applied in its transaction. */
export class RecordChanges {
  private readonly pickList = new PickListChanges();
  private readonly dashboard = new DashboardChanges();
  private stored = 0;
  private readonly storedHubs = new Set<string>();
  /** The ids of the changed records, by their event's action. */
  private readonly changedIds = new Map<Exclude<RecordsEvent['action'], 'uploaded'>, number[]>();

  /** Records stored, with their derived columns. */
  added(rows: readonly RecordRow[]): this {
    for (const row of rows) {
      this.pickList.added(row.id, row.hub_code, row);
      if (row.hub_code) this.storedHubs.add(row.hub_code);
    }
    this.dashboard.insertAll(rows);
    this.stored += rows.length;
    return this;
  }

  /** A record changed from `before` to `after`. */
  changed(before: RecordRow, after: RecordRow): this {
    this.pickList.changed(before, after);
    this.dashboard.change(before, after);
    const action = ACTIONS[after.status_key];
    if (action) this.changedIds.set(action, [...(this.changedIds.get(action) ?? []), after.id]);
    return this;
  }

  /**
   * Writes the changes in `trx`, the transaction of the write; the events last (src/events/write.ts
   * says why), with `alsoEvents` of the same write in the same insert.
   */
  async apply(trx: Kysely<Database>, db: Db, alsoEvents: readonly NewEvent[] = []): Promise<void> {
    await writeSummaries(trx, db, [...this.pickList.tables(), ...this.dashboard.tables()]);
    await writeEvents(trx, db, [...(await this.events(trx, db)), ...alsoEvents]);
  }

  /**
   * One 'uploaded' event for the records stored; one event per action for the records changed,
   * each record as api/get_status/ answers it (devices/record-json.ts), read in `trx`: one select by id.
   */
  private async events(trx: Kysely<Database>, db: Db): Promise<NewEvent[]> {
    const events: NewEvent[] = [];
    if (this.stored > 0) {
      const data: RecordsEvent = { action: 'uploaded', count: this.stored, hubs: [...this.storedHubs].sort() };
      events.push({ type: 'records', data: JSON.stringify(data) });
    }
    for (const [action, ids] of this.changedIds) {
      // The database's JSON text of each record, as get_status sends it, spliced in unparsed.
      const records = await recordJsonOf(db, ids, trx);
      events.push({ type: 'records', data: `{"action":"${action}","records":[${records.join(',')}]}` });
    }
    return events;
  }
}

/** The fields a write sets; the derived columns follow from them. */
export type RecordFields = Omit<Updateable<DeviceRecordsTable>, 'id' | keyof DerivedColumns>;

/**
 * Changes record `before` (read in `trx` and, on PostgreSQL, locked with `for update`, so nothing
 * changes it until the transaction ends; SQLite has one writer at a time) by `fields`: one UPDATE
 * of the fields and of the derived columns they move, then the summaries and the events, with
 * `alsoEvents` of the same write (a case's). Returns the record after.
 */
export async function changeRecord(
  trx: Kysely<Database>,
  db: Db,
  before: RecordRow,
  fields: RecordFields,
  alsoEvents: readonly NewEvent[] = [],
): Promise<RecordRow> {
  const merged = { ...before, ...fields } as RecordRow;
  const after: RecordRow = { ...merged, ...derivedColumns(merged) };
  const moved = DERIVED_COLUMNS.filter((column) => after[column] !== before[column]);
  await trx
    .updateTable('device_records')
    .set({ ...fields, ...Object.fromEntries(moved.map((column) => [column, after[column]])), ...changeStamps(db) })
    .where('id', '=', before.id)
    .execute();
  await new RecordChanges().changed(before, after).apply(trx, db, alsoEvents);
  return after;
}

/** Every summary computed afresh from device_records: after a bulk load, whose rows were not counted one by one. */
export async function rebuildSummaries(db: Db): Promise<void> {
  await rebuildPickListSummaries(db.kysely);
  await rebuildDashboardSummaries(db);
}
