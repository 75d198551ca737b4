// Display rules over device records (docs/screens.md#device-pick-list). Pure functions: the
// pick list and the dashboard derive everything they show about a record from here.
import type { DeviceRecord, DeviceType } from './types';

/** The status texts of docs/screens.md#status, including the spelling 'Detatched'. */
export type RecordStatus = 'Pending' | 'Submitted for verification' | 'verified at hub' | 'Detatched';

export function recordStatus(r: DeviceRecord): RecordStatus {
  return recordStatusOfFlags(r.is_submit, r.is_verified, r.is_verified_rc_by);
}

/** recordStatus of a record's flags alone, for the server's report that reads only those. */
export function recordStatusOfFlags(isSubmit: boolean, isVerified: boolean, isVerifiedRcBy: boolean): RecordStatus {
  if (!isSubmit) return 'Pending';
  if (!isVerified) return 'Submitted for verification';
  return isVerifiedRcBy ? 'Detatched' : 'verified at hub';
}

/** Which event a record's timestamp shows; the pick list colours it green, blue or grey. */
export type TimestampKind = 'verified' | 'submitted' | 'created';

export interface RecordTimestamp {
  time: string | null;
  kind: TimestampKind;
}

/** The latest step reached: verify time if verified, else submit time if submitted, else created date. */
export function recordTimestamp(r: DeviceRecord): RecordTimestamp {
  if (r.is_verified) return { time: r.verify_time, kind: 'verified' };
  if (r.is_submit) return { time: r.submit_time, kind: 'submitted' };
  return { time: r.tracking_id.created_date, kind: 'created' };
}

/** Milliseconds of an ISO time for sorting; missing or invalid times sort as oldest. */
export function timeValue(iso: string | null | undefined): number {
  if (!iso) return Number.NEGATIVE_INFINITY;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

export type ResultDisplay = { kind: 'pass' } | { kind: 'error'; code: string };

/** Shown only once submitted or verified: 'passed' is a pass mark, 'E…' an error with its code, else nothing. */
export function resultDisplay(r: DeviceRecord): ResultDisplay | null {
  if (!r.is_submit && !r.is_verified) return null;
  const result = r.device_result;
  if (result === 'passed') return { kind: 'pass' };
  if (result?.startsWith('E')) return { kind: 'error', code: result };
  return null;
}

export const NOT_AVAILABLE = 'N/A';

const DEVICE_TYPES: readonly DeviceType[] = ['smarttv', 'laptop', 'tablet', 'mobile', 'truewireless'];

/** Empty or unknown device types get the generic icon. */
export type DeviceIconType = DeviceType | 'generic';

export function deviceIconType(type: string | null | undefined): DeviceIconType {
  return DEVICE_TYPES.includes(type as DeviceType) ? (type as DeviceType) : 'generic';
}

function orNA(value: string | null | undefined): string {
  const trimmed = value?.trim();
  return trimmed ? trimmed : NOT_AVAILABLE;
}

export interface ExpectedDevice {
  type: DeviceIconType;
  name: string;
  brand: string;
}

/** What the shipment expects: blind-pick items name only the blind brand and model. */
export function expectedDevice(r: DeviceRecord): ExpectedDevice {
  const t = r.tracking_id;
  return t.is_Blindpick
    ? { type: deviceIconType(t.device_type), name: orNA(t.Blind_model), brand: orNA(t.Blind_brand) }
    : { type: deviceIconType(t.device_type), name: orNA(t.device_model_name), brand: orNA(t.device_brand) };
}

export interface ScannedDevice {
  name: string;
  manufacturer: string;
}

/** What was scanned at the doorstep; null when nothing was captured (shown as N/A). */
export function scannedDevice(r: DeviceRecord): ScannedDevice | null {
  if (!r.submitted_device_name?.trim() && !r.submitted_manufacturer?.trim()) return null;
  return { name: orNA(r.submitted_device_name), manufacturer: orNA(r.submitted_manufacturer) };
}

export interface TimelineStep {
  label: 'Submitted' | 'Verified at Hub' | 'Verified at RC';
  reached: boolean;
  time: string | null;
  by: string | null;
}

/** The three steps of the details timeline, in order. */
export function recordTimeline(r: DeviceRecord): TimelineStep[] {
  return [
    { label: 'Submitted', reached: r.is_submit, time: r.submit_time, by: r.submitted_by?.username ?? null },
    { label: 'Verified at Hub', reached: r.is_verified, time: r.verify_time, by: r.verified_by?.username ?? null },
    {
      label: 'Verified at RC',
      reached: r.is_verified_rc,
      time: r.verify_time_rc,
      by: r.verified_by_rc?.username ?? null,
    },
  ];
}

/** The record's hub code as stored, or null when it has none. */
export function hubCodeOf(r: DeviceRecord): string | null {
  return r.tracking_id.hub_code?.trim() || null;
}

/** The distinct hub codes present in the records, sorted; the first spelling seen wins. */
export function distinctHubCodes(records: readonly DeviceRecord[]): string[] {
  const byKey = new Map<string, string>();
  for (const r of records) {
    const code = hubCodeOf(r);
    if (code && !byKey.has(code.toLowerCase())) byKey.set(code.toLowerCase(), code);
  }
  return [...byKey.values()].sort((a, b) => a.localeCompare(b));
}
