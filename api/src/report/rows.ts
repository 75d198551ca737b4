// The report's rows (docs/csv.md#report-columns): the records created within a range, in
// (created_ms, id) order, with their columns as the report shows them: read as JSON arrays and
// written by csv.ts on SQLite, written as CSV by PostgreSQL itself (copy-report.ts).
import { timeMs } from '@veritas/shared/domain';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/schema';
import { FORMULA_START } from './csv';
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
const RECORD_COLUMNS = [
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
const ROW_FIELDS = RECORD_COLUMNS.map((column) => USER_NAMES[column] ?? `d.${column}`);

/** docs/screens.md#status wording, including its spelling of 'Detatched'. */
export function recordStatus(isSubmit: number, isVerified: number, isVerifiedRcBy: number): string {
  if (!isSubmit) return 'Pending';
  if (!isVerified) return 'Submitted for verification';
  return isVerifiedRcBy ? 'Detatched' : 'verified at hub';
}

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
    recordStatus(isSubmit, isVerified, isVerifiedRcBy),
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
function recordsAfter(db: Db, range: TimeRange, from: ReportKey) {
  return db.kysely
    .selectFrom('device_records')
    .where((w) => w(w.refTuple('created_ms', 'id'), '>', w.tuple(from.created_ms, from.id)))
    .where('created_ms', '<=', range.last)
    .orderBy('created_ms')
    .orderBy('id');
}

/**
 * PostgreSQL: where the slice of `rows` records after `from` ends, by an index-only walk; nothing
 * when fewer are left in the range.
 */
export function sliceEndQuery(db: Db, range: TimeRange, from: ReportKey, rows: number) {
  return recordsAfter(db, range, from)
    .select(['created_ms', 'id'])
    .offset(rows - 1)
    .limit(1);
}

/** SQLite: the records whose created_ms lies in the range, one keyset page at a time. */
export async function* reportPages(db: Db, range: TimeRange, pageSize: number): AsyncGenerator<ReportRow[]> {
  const rowJson = sql<string>`json_array(${sql.join(ROW_FIELDS.map((field) => sql.ref(field)))})`;
  const pageAfter = async (from: ReportKey): Promise<ReportRow[]> => {
    // The page is cut first, so the user names are joined for its rows only.
    const page = await db.kysely
      .selectFrom(
        recordsAfter(db, range, from)
          .select([...RECORD_COLUMNS, 'created_ms'])
          .limit(pageSize)
          .as('d'),
      )
      .leftJoin('users as sb', 'sb.id', 'd.submitted_by_id')
      .leftJoin('users as vb', 'vb.id', 'd.verified_by_id')
      .leftJoin('users as rb', 'rb.id', 'd.verified_by_rc_id')
      .select(rowJson.as('json'))
      .orderBy('d.created_ms')
      .orderBy('d.id')
      .execute();
    return page.map((row) => JSON.parse(row.json) as ReportRow);
  };

  let rows = await pageAfter(beforeRange(range));
  while (rows.length > 0) {
    yield rows;
    if (rows.length < pageSize) return;
    const [id, , , createdDate] = rows[rows.length - 1]!;
    // created_ms is derived from created_date by this very function (derived-columns.ts): the key
    // costs no column sent with every row.
    rows = await pageAfter({ created_ms: timeMs(createdDate)!, id });
  }
}

type ReportColumn = (typeof REPORT_COLUMNS)[number];

const FORMULA_START_CODES = sql.raw(`(${[...FORMULA_START].map((start) => start.charCodeAt(0)).join(', ')})`);

/**
 * csvCell's formula rule in SQL, and empty text as null (which COPY writes as an empty cell, where
 * it would write "" for empty text). ascii() reads the first character's code without the copy
 * substr() makes: the whole query took a quarter less time.
 */
const formulaSafe = (value: RawBuilder<unknown>) =>
  sql<
    string | null
  >`case when ascii(${value}) in ${FORMULA_START_CODES} then '''' || ${value} when ${value} <> '' then ${value} end`;

const column = (name: string) => formulaSafe(sql.ref(name));
const blind = sql`d.is_blindpick = 1`;

/**
 * reportCells in SQL, over the record `d` and the user names `sb`, `vb` and `rb`: each text cell
 * formula-safe and null when empty, not yet quoted. The flags are stored as 0 or 1.
 */
const REPORT_CELLS_SQL: Record<ReportColumn, RawBuilder<string | null>> = {
  tracking_id: column('d.tracking_id'),
  hub_code: column('d.hub_code'),
  created_date: column('d.created_date'),
  device_type: column('d.device_type'),
  expected_brand: formulaSafe(sql`case when ${blind} then d.blind_brand else d.device_brand end`),
  expected_model: formulaSafe(sql`case when ${blind} then d.blind_model else d.device_model_name end`),
  is_blindpick: sql`case when ${blind} then 'true' else 'false' end`,
  // recordStatus's wording, taken from it.
  status: sql`case when d.is_submit = 0 then ${sql.lit(recordStatus(0, 0, 0))}
    when d.is_verified = 0 then ${sql.lit(recordStatus(1, 0, 0))}
    when d.is_verified_rc_by = 0 then ${sql.lit(recordStatus(1, 1, 0))} else ${sql.lit(recordStatus(1, 1, 1))} end`,
  submitted_by: column('sb.username'),
  submit_time: column('d.submit_time'),
  submitted_device: column('d.submitted_device_name'),
  submitted_manufacturer: column('d.submitted_manufacturer'),
  device_result: column('d.device_result'),
  verified_by: column('vb.username'),
  verify_time: column('d.verify_time'),
  verified_by_rc: column('rb.username'),
  verify_time_rc: column('d.verify_time_rc'),
};

/** The records `d` (the table or a page of it) with the names of their users. */
const withUserNames = (records: RawBuilder<unknown>) => sql`${records} as d
  left join users sb on sb.id = d.submitted_by_id
  left join users vb on vb.id = d.verified_by_id
  left join users rb on rb.id = d.verified_by_rc_id`;

/**
 * PostgreSQL: the report's query for COPY … TO STDOUT (FORMAT csv), which quotes like csvCell and
 * ends records with LF (copy-report.ts): the rows of the range after `from`, up to `to` or the
 * range's end. COPY takes no parameters: the bounds are written as literals.
 */
export function reportCopyQuery(range: TimeRange, from: ReportKey, to: ReportKey | undefined): RawBuilder<unknown> {
  const cells = REPORT_COLUMNS.map((name) => REPORT_CELLS_SQL[name]);
  const key = ({ created_ms, id }: ReportKey) => sql`(${sql.lit(created_ms)}, ${sql.lit(id)})`;
  const end = to ? sql`(d.created_ms, d.id) <= ${key(to)}` : sql`d.created_ms <= ${sql.lit(range.last)}`;
  return sql`select ${sql.join(cells)} from ${withUserNames(sql.table('device_records'))}
    where (d.created_ms, d.id) > ${key(from)} and ${end}
    order by d.created_ms, d.id`;
}
