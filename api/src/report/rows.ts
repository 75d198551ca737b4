// The report's rows (docs/csv.md#report-columns): the records created within a range, in
// (created_ms, id) order, with their columns as the report shows them: read as JSON arrays and
// written by csv.ts on SQLite (report-lines.sqlite.ts), written as CSV by PostgreSQL itself
// (report-lines.postgres.ts).
import { recordStatusOfFlags } from '@veritas/shared/domain';
import type { Db } from '../db/schema';
import type { TimeRange } from './dates';

export const REPORT_COLUMNS = [
  'tracking_id',
  'hub_code',
  'created_date',
  'device_type',
  'expected_brand',
  'expected_model',
  'is_blindpick',
  'status',
  'submitted_by',
  'submit_time',
  'submitted_device',
  'submitted_manufacturer',
  'device_result',
  'verified_by',
  'verify_time',
  'verified_by_rc',
  'verify_time_rc',
] as const;

/**
 * One record as SQLite sends it: a JSON array of RECORD_COLUMNS, each user id replaced by that
 * user's name. One text value a row is fetched about twice as fast as 22 columns, which the
 * driver turns into an object each (src/devices/record-json.ts renders JSON in the database likewise).
 * reportCells of it is the report's line; PostgreSQL's own rendering (REPORT_CELLS_SQL) is held
 * to that by test/report-sql.test.ts.
 */
export type ReportRow = [
  id: number,
  tracking_id: string,
  hub_code: string | null,
  created_date: string,
  device_type: string | null,
  is_blindpick: number,
  blind_brand: string | null,
  blind_model: string | null,
  device_model_name: string | null,
  device_brand: string | null,
  is_submit: number,
  submit_time: string | null,
  submitted_by: string | null,
  submitted_device_name: string | null,
  submitted_manufacturer: string | null,
  device_result: string | null,
  is_verified: number,
  verify_time: string | null,
  verified_by: string | null,
  verified_by_rc: string | null,
  verify_time_rc: string | null,
  is_verified_rc_by: number,
];

/** The columns of device_records the report reads, in ReportRow order. */
export const RECORD_COLUMNS = [
  'id',
  'tracking_id',
  'hub_code',
  'created_date',
  'device_type',
  'is_blindpick',
  'blind_brand',
  'blind_model',
  'device_model_name',
  'device_brand',
  'is_submit',
  'submit_time',
  'submitted_by_id',
  'submitted_device_name',
  'submitted_manufacturer',
  'device_result',
  'is_verified',
  'verify_time',
  'verified_by_id',
  'verified_by_rc_id',
  'verify_time_rc',
  'is_verified_rc_by',
] as const;

/** A user id is sent as that user's name, joined from users under these aliases. */
const USER_NAMES: Partial<Record<(typeof RECORD_COLUMNS)[number], string>> = {
  submitted_by_id: 'sb.username',
  verified_by_id: 'vb.username',
  verified_by_rc_id: 'rb.username',
};
export const ROW_FIELDS = RECORD_COLUMNS.map((column) => USER_NAMES[column] ?? `d.${column}`);

/** The cells of one record, in REPORT_COLUMNS order; null is an empty cell. */
export function reportCells(row: ReportRow): (string | null)[] {
  const [
    ,
    trackingId,
    hubCode,
    createdDate,
    deviceType,
    isBlindpick,
    blindBrand,
    blindModel,
    deviceModelName,
    deviceBrand,
    isSubmit,
    submitTime,
    submittedBy,
    submittedDeviceName,
    submittedManufacturer,
    deviceResult,
    isVerified,
    verifyTime,
    verifiedBy,
    verifiedByRc,
    verifyTimeRc,
    isVerifiedRcBy,
  ] = row;
  // Blind picks name the item only by brand and model (docs/screens.md#expected-and-scanned-device).
  const blind = isBlindpick === 1;
  return [
    trackingId,
    hubCode,
    createdDate,
    deviceType,
    blind ? blindBrand : deviceBrand,
    blind ? blindModel : deviceModelName,
    blind ? 'true' : 'false',
    recordStatusOfFlags(isSubmit === 1, isVerified === 1, isVerifiedRcBy === 1),
    submittedBy,
    submitTime,
    submittedDeviceName,
    submittedManufacturer,
    deviceResult,
    verifiedBy,
    verifyTime,
    verifiedByRc,
    verifyTimeRc,
  ];
}

/** A position in the report's order: a page or a slice holds the records after one key. */
export interface ReportKey {
  created_ms: number;
  id: number;
}

/** The key before the range's first record: ids start at 1, so "after (first, 0)" is "created_ms >= first". */
export const beforeRange = (range: TimeRange): ReportKey => ({ created_ms: range.first, id: 0 });

/**
 * The records of the range after `from`, in the report's order: one seek into the index
 * device_records_by_created and a walk along it, however deep into the report. created_ms is the
 * created date as the dashboard reads it, null when missing or unreadable: such a record is never
 * in a report, and a report counts the records the dashboard counts.
 */
export function recordsAfter(db: Db, range: TimeRange, from: ReportKey) {
  return db.kysely
    .selectFrom('device_records')
    .where((w) => w(w.refTuple('created_ms', 'id'), '>', w.tuple(from.created_ms, from.id)))
    .where('created_ms', '<=', range.last)
    .orderBy('created_ms')
    .orderBy('id');
}
