// The columns of a shipment CSV and the rule of each (docs/csv.md#columns). The API's JSON items
// have the same columns (@veritas/shared's SHIPMENT_COLUMNS, src/integrations/shipments.ts).
import { SHIPMENT_COLUMNS as COLUMNS, type ShipmentColumn as Column } from '@veritas/shared/domain';
import type { Flag } from '../db/schema';
import { isoInstant } from './iso-date';

const DEVICE_TYPES = ['smarttv', 'laptop', 'tablet', 'mobile', 'truewireless'] as const;
const REQUIRED_COLUMNS = ['tracking_id', 'hub_code'] as const;
const MAX_TEXT_LENGTH = 128;

/** The free-text columns, kept exactly as sent. */
type TextColumn = 'device_brand' | 'device_model_name' | 'blind_brand' | 'blind_model';
/** Where each known column is in a record; -1 when the file lacks it. */
export type ColumnPositions = Record<Column, number>;

/** A valid row, as stored in device_records. */
export interface ShipmentRecord {
  tracking_id: string;
  hub_code: string;
  created_date: string;
  device_type: string | null;
  is_blindpick: Flag;
  device_brand: string | null;
  device_model_name: string | null;
  blind_brand: string | null;
  blind_model: string | null;
}

export type RowCheck = { record: ShipmentRecord } | { errors: string[] };

const TRACKING_ID = /^[A-Za-z0-9_-]+$/;
const MAX_TRACKING_ID_LENGTH = 64;
const isDeviceType = (value: string) => (DEVICE_TYPES as readonly string[]).includes(value);
const BLINDPICK = new Map<string, Flag>([
  ['true', 1],
  ['1', 1],
  ['yes', 1],
  ['false', 0],
  ['0', 0],
  ['no', 0],
  ['', 0],
]);

/** A value quoted in a message, shortened so a huge cell does not flood the answer. */
function shown(value: string): string {
  return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
}

/** Length in characters (code points), not UTF-16 units. */
function characters(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** The columns of a header record, or the problem that makes the whole file unreadable. */
export function readHeader(names: string[]): { columns: ColumnPositions } | { problem: string } {
  const columns = Object.fromEntries(COLUMNS.map((column) => [column, -1])) as ColumnPositions;
  for (const [position, raw] of names.entries()) {
    const name = raw.trim().toLowerCase() as Column;
    if (!Object.hasOwn(columns, name)) continue; // unknown columns are ignored
    if (columns[name] !== -1) return { problem: `The header row names the column ${name} more than once.` };
    columns[name] = position;
  }
  const missing = REQUIRED_COLUMNS.filter((column) => columns[column] === -1);
  if (missing.length > 0) {
    return {
      problem: `The header row lacks the required column${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}.`,
    };
  }
  return { columns };
}

/** A cell as the file holds it; '' for a column the file lacks. */
function exactCell(fields: string[], position: number): string {
  return position === -1 ? '' : fields[position]!;
}

/** A cell of an identifier, code, flag or date, without the white space around it. */
function cell(fields: string[], position: number): string {
  return exactCell(fields, position).trim();
}

/**
 * An optional text column, given as sent (RFC 4180: spaces are part of a field): null when empty;
 * too long adds an error.
 */
function optionalText(column: TextColumn, text: string, errors: string[]): string | null {
  if (text.length > MAX_TEXT_LENGTH && characters(text) > MAX_TEXT_LENGTH) {
    errors.push(`${column} is longer than ${MAX_TEXT_LENGTH} characters (${characters(text)})`);
  }
  return text || null;
}

/**
 * Checks one data record against every rule, reporting all it breaks. `hubs` maps each hub code,
 * as stored and lower-cased, to its stored spelling; an empty created_date becomes `uploadTime`.
 */
export function checkRow(
  fields: string[],
  columns: ColumnPositions,
  hubs: Map<string, string>,
  uploadTime: string,
): RowCheck {
  const errors: string[] = [];

  const trackingId = cell(fields, columns.tracking_id);
  if (!trackingId) errors.push('tracking_id is required');
  else if (trackingId.length > MAX_TRACKING_ID_LENGTH)
    errors.push(`tracking_id ${shown(trackingId)} is longer than ${MAX_TRACKING_ID_LENGTH} characters`);
  else if (!TRACKING_ID.test(trackingId))
    errors.push(`tracking_id ${shown(trackingId)} may only contain letters, digits, '-' and '_'`);

  const hubCode = cell(fields, columns.hub_code);
  // Most files spell codes as stored: lower-casing only when that fails spares a string a row.
  const hub = hubs.get(hubCode) ?? hubs.get(hubCode.toLowerCase());
  if (!hubCode) errors.push('hub_code is required');
  else if (hub === undefined) errors.push(`hub_code ${shown(hubCode)} is not a hub`);

  const deviceTypeText = cell(fields, columns.device_type);
  const deviceType = deviceTypeText.toLowerCase();
  if (deviceType && !isDeviceType(deviceType)) {
    errors.push(`device_type ${shown(deviceTypeText)} must be one of ${DEVICE_TYPES.join(', ')} (or empty)`);
  }

  const deviceBrand = optionalText('device_brand', exactCell(fields, columns.device_brand), errors);
  const deviceModelName = optionalText('device_model_name', exactCell(fields, columns.device_model_name), errors);

  const blindpickText = cell(fields, columns.is_blindpick);
  const blindpick = BLINDPICK.get(blindpickText.toLowerCase());
  if (blindpick === undefined)
    errors.push(`is_blindpick ${shown(blindpickText)} must be true, false, 1, 0, yes or no (or empty)`);

  const blindBrand = optionalText('blind_brand', exactCell(fields, columns.blind_brand), errors);
  const blindModel = optionalText('blind_model', exactCell(fields, columns.blind_model), errors);

  const createdText = cell(fields, columns.created_date);
  const created = createdText ? isoInstant(createdText) : null;
  if (createdText && created === null)
    errors.push(`created_date ${shown(createdText)} is not a valid ISO 8601 date or date-time`);

  if (errors.length > 0) return { errors };
  return {
    record: {
      tracking_id: trackingId,
      hub_code: hub!,
      created_date: created ?? uploadTime,
      device_type: deviceType || null,
      is_blindpick: blindpick!,
      device_brand: deviceBrand,
      device_model_name: deviceModelName,
      blind_brand: blindBrand,
      blind_model: blindModel,
    },
  };
}
