// An upload's records as they are stored (store-records.ts): their columns and values, whether each
// is stored, and the summary changes of those stored.
import { DERIVED_COLUMNS, derivedColumns, type RecordFacts } from '../writes/derived-columns';
import { RecordChanges, type RecordRow } from '../writes/record-changes';
import type { ShipmentRecord } from './shipment-rows';

/**
 * For each record of the batch (and its row in the file), in order: whether it is stored, by this
 * call or, in a resumed run, by an earlier run of the same upload.
 */
export type RecordStore = (records: ShipmentRecord[], rows: number[]) => Promise<boolean[]>;

/** The upload the records come from. */
export interface StoreTarget {
  uploadId: string;
  /** An earlier run of this upload may have stored some of its rows (HeldUpload.resumed). */
  resumed: boolean;
}

export const COLUMNS = [
  ['tracking_id', 'text'],
  ['hub_code', 'text'],
  ['created_date', 'text'],
  ['device_type', 'text'],
  ['is_blindpick', 'integer'],
  ['device_brand', 'text'],
  ['device_model_name', 'text'],
  ['blind_brand', 'text'],
  ['blind_model', 'text'],
] as const satisfies readonly (readonly [keyof ShipmentRecord, string])[];

/** A new record as the summaries see it (id 0 until stored): nothing has happened to it yet. */
export function rowOf(r: ShipmentRecord): RecordRow {
  const row = {
    id: 0,
    submitted_by_id: null,
    hub_code: r.hub_code,
    created_date: r.created_date,
    is_submit: 0,
    submit_time: null,
    is_verified: 0,
    verify_time: null,
    is_verified_rc_by: 0,
    device_result: null,
  } satisfies RecordFacts & Partial<RecordRow>;
  // Object.assign, not a spread: spreading an object this wide costs V8 several µs a row.
  return Object.assign(row, derivedColumns(row));
}

export const COLUMN_NAMES = [...COLUMNS.map(([name]) => name), ...DERIVED_COLUMNS, 'upload_id', 'upload_row'];

/** A record's values in COLUMN_NAMES order; its fields spelt out, as it runs for every row. */
export function storedValues(r: ShipmentRecord, row: RecordRow, uploadId: string, uploadRow: number): unknown[] {
  const values: unknown[] = [
    r.tracking_id,
    r.hub_code,
    r.created_date,
    r.device_type,
    r.is_blindpick,
    r.device_brand,
    r.device_model_name,
    r.blind_brand,
    r.blind_model,
  ];
  for (const column of DERIVED_COLUMNS) values.push(row[column]);
  values.push(uploadId, uploadRow);
  return values;
}

/** What the insert reads of a record: its fields, its derived columns and its row in the file, nothing more. */
export function insertedOf(r: ShipmentRecord, row: RecordRow, uploadRow: number): Record<string, unknown> {
  const inserted: Record<string, unknown> = Object.assign<Record<string, unknown>, ShipmentRecord>({}, r);
  for (const column of DERIVED_COLUMNS) inserted[column] = row[column];
  inserted.upload_row = uploadRow;
  return inserted;
}

/**
 * Whether each record is stored: inserted now, or (`own`: the tracking IDs this upload stored
 * before, with the row that stored each) stored from this very row by an earlier run.
 */
export function storedOrOwn(
  records: ShipmentRecord[],
  rows: number[],
  inserted: boolean[],
  own: Map<string, number>,
): boolean[] {
  return records.map((record, i) => inserted[i]! || own.get(record.tracking_id) === rows[i]);
}

/** The summary changes of the rows stored, given their ids (undefined: not stored). */
export function changesOf(rows: RecordRow[], ids: (number | undefined)[]): RecordChanges {
  const stored: RecordRow[] = [];
  rows.forEach((row, i) => {
    const id = ids[i];
    if (id !== undefined) stored.push(Object.assign(row, { id }));
  });
  return new RecordChanges().added(stored);
}
