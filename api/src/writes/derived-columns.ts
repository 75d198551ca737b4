// The columns of device_records derived from a record's own fields: what the pick list orders and
// filters by (docs/screens.md#server-side-pick-list) and the times as the dashboard reads them
// (docs/dashboard.md#server-side-figures). One pure function computes them for every write path
// (the upload, the field scans through record-changes.ts, the bulk loader, the migrations
// that added them), from the rules the console applies in the page (@veritas/shared/domain), so
// the server's order, filters and figures cannot drift from the console's.
import {
  DEVICE_STATUS_KEYS,
  hubCodeOf,
  recordStatus,
  recordTimestamp,
  resultDisplay,
  timeMs,
  timeValue,
  type DeviceRecord,
} from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import { forEngine } from '../db/engines';
import type { Database, Engine, Flag, StatusKey } from '../db/schema';
import { writeDerivedPostgres } from './derived-columns.postgres';
import { writeDerivedSqlite } from './derived-columns.sqlite';

/** The stored fields the derived columns depend on. */
export interface RecordFacts {
  hub_code: string | null;
  created_date: string | null;
  is_submit: Flag;
  submit_time: string | null;
  is_verified: Flag;
  verify_time: string | null;
  is_verified_rc_by: Flag;
  device_result: string | null;
}

/** Their column names. */
export const FACT_COLUMNS = [
  'hub_code',
  'created_date',
  'is_submit',
  'submit_time',
  'is_verified',
  'verify_time',
  'is_verified_rc_by',
  'device_result',
] as const satisfies readonly (keyof RecordFacts)[];

export interface DerivedColumns {
  /** Milliseconds of the timestamp the pick list shows (Date.parse); MISSING_TIME_MS when missing or invalid. */
  sort_ms: number;
  /** hubCodeOf(record) lower-cased with JS toLowerCase, as the console compares hubs; null without a hub. */
  hub_key: string | null;
  /** recordStatus(record) as a filter value. */
  status_key: StatusKey;
  /** What the Result column shows: 'passed', an E code, or null (nothing shown). */
  result_key: string | null;
  /** The created date, submit time and verify time as the dashboard reads them (timeMs): null when missing or invalid. */
  created_ms: number | null;
  submit_ms: number | null;
  verify_ms: number | null;
}

/** Their column names, in the order the bulk insert statements list them, with their PostgreSQL types. */
export const DERIVED_TYPES = {
  sort_ms: 'bigint',
  hub_key: 'text',
  status_key: 'text',
  result_key: 'text',
  created_ms: 'bigint',
  submit_ms: 'bigint',
  verify_ms: 'bigint',
} as const satisfies Readonly<Record<keyof DerivedColumns, string>>;
export type DerivedColumn = keyof typeof DERIVED_TYPES;
export const DERIVED_COLUMNS = Object.keys(DERIVED_TYPES) as DerivedColumn[];
/** The derived columns stored as bigint: PostgreSQL answers them as text. */
export const MS_COLUMNS = [
  'sort_ms',
  'created_ms',
  'submit_ms',
  'verify_ms',
] as const satisfies readonly DerivedColumn[];

/**
 * The sort key of a record without a usable time: below every time a Date can hold (±8.64e15 ms),
 * so such records come last in the newest-first order, as -Infinity does in the console.
 */
export const MISSING_TIME_MS = -8_640_000_000_000_001;

/** The record as the console reads it, as far as the display rules look. */
function displayed(facts: RecordFacts): DeviceRecord {
  return {
    id: 0,
    tracking_id: {
      tracking_id: '',
      hub_code: facts.hub_code,
      created_date: facts.created_date,
      device_type: null,
      is_Blindpick: false,
      Blind_brand: null,
      Blind_model: null,
      device_model_name: null,
      device_brand: null,
    },
    is_submit: facts.is_submit === 1,
    submit_time: facts.submit_time,
    submitted_by: null,
    submitted_device_name: null,
    submitted_manufacturer: null,
    is_verified: facts.is_verified === 1,
    verify_time: facts.verify_time,
    verified_by: null,
    is_verified_rc: false,
    verified_by_rc: null,
    verify_time_rc: null,
    is_verified_rc_by: facts.is_verified_rc_by === 1,
    device_result: facts.device_result,
  };
}

/** Every derived column of a record, from its stored fields. */
export function derivedColumns(facts: RecordFacts): DerivedColumns {
  const record = displayed(facts);
  const time = timeValue(recordTimestamp(record).time);
  const result = resultDisplay(record);
  return {
    sort_ms: Number.isFinite(time) ? time : MISSING_TIME_MS,
    hub_key: hubCodeOf(record)?.toLowerCase() ?? null,
    status_key: DEVICE_STATUS_KEYS[recordStatus(record)],
    result_key: result === null ? null : result.kind === 'pass' ? 'passed' : result.code,
    created_ms: timeMs(facts.created_date),
    submit_ms: timeMs(facts.submit_time),
    verify_ms: timeMs(facts.verify_time),
  };
}

/**
 * Writes back a batch of derived columns, each with its PostgreSQL type: `values` is a JSON list of
 * objects holding the record's `id` and those columns (derived-columns.postgres.ts, .sqlite.ts).
 */
export type DerivedWriter = (
  db: Kysely<Database>,
  columns: readonly (readonly [column: DerivedColumn, type: string])[],
  values: string,
) => Promise<void>;

/** Records read and written back per statement by backfillDerivedColumns. */
const BACKFILL_BATCH = 2000;

/**
 * Fills in `columns` (derived columns a migration has just added) for every stored record,
 * computed in JS (times are parsed with Date.parse, as the console does; no SQL date function
 * parses alike) and written back a batch at a time as one UPDATE … FROM a JSON list (DerivedWriter).
 */
export async function backfillDerivedColumns(
  db: Kysely<Database>,
  engine: Engine,
  columns: readonly DerivedColumn[],
): Promise<void> {
  const write = forEngine({ engine }, { postgres: writeDerivedPostgres, sqlite: writeDerivedSqlite });
  const typed = columns.map((column) => [column, DERIVED_TYPES[column]] as const);
  let afterId = 0;
  for (;;) {
    const rows = await db
      .selectFrom('device_records')
      .select(['id', ...FACT_COLUMNS])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) return;
    const values = JSON.stringify(
      rows.map((row) => {
        const derived = derivedColumns(row);
        return { id: row.id, ...Object.fromEntries(columns.map((column) => [column, derived[column]])) };
      }),
    );
    await write(db, typed, values);
    afterId = rows[rows.length - 1]!.id;
  }
}
