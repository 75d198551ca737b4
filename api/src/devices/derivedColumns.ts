// The columns of device_records derived from a record's own fields: what the pick list orders and
// filters by (docs/screens.md#server-side-pick-list). One pure function computes them for every
// write path (the upload, the field-scan engine, the bulk loader, migration 006), from the
// display rules the console applies in the page (@veritas/shared/domain), so the server's order
// and filters cannot drift from the console's.
import {
  hubCodeOf,
  recordStatus,
  recordTimestamp,
  resultDisplay,
  timeValue,
  type DeviceRecord,
  type RecordStatus,
} from '@veritas/shared/domain';
import type { Flag, StatusKey } from '../db/schema';

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

/** Their column names, for reading them back (e.g. after an update, src/devices/summaries.ts). */
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
}

/** Their column names, in the order the bulk insert statements list them. */
export const DERIVED_COLUMNS = ['sort_ms', 'hub_key', 'status_key', 'result_key'] as const satisfies readonly (keyof DerivedColumns)[];

/**
 * The sort key of a record without a usable time: below every time a Date can hold (±8.64e15 ms),
 * so such records come last in the newest-first order, as -Infinity does in the console.
 */
export const MISSING_TIME_MS = -8_640_000_000_000_001;

export const STATUS_KEYS: Readonly<Record<RecordStatus, StatusKey>> = {
  Pending: 'pending',
  'Submitted for verification': 'submitted',
  'verified at hub': 'verified',
  Detatched: 'detached',
};

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
    status_key: STATUS_KEYS[recordStatus(record)],
    result_key: result === null ? null : result.kind === 'pass' ? 'passed' : result.code,
  };
}
