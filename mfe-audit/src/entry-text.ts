// How an audit entry reads in the table and its details (docs/screens.md#audit-log): every value
// becomes text (objects as JSON), which React writes as text, never as HTML.
import { roleLabel, type AuditEntry, type Role } from '@veritas/shared';

/** Shown for a value the entry does not have. */
export const NONE = '—';

const timeFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The entry's time in the browser's zone, to the second, e.g. 'Nov 24, 2026, 07:13:09 AM'. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : timeFormat.format(date);
}

/** Who acted, for the table: a user's name and role, a token's label, the username an anonymous sign-in tried. */
export function actorText({ kind, name, role }: AuditEntry['actor']): string {
  switch (kind) {
    case 'user':
      return role ? `${name} (${roleLabel(role as Role)})` : name;
    case 'token':
      return `${name} (token)`;
    case 'anonymous':
      return name ? `${name} (anonymous)` : 'anonymous';
    default:
      return name;
  }
}

/** The target for the table: 'kind: label'. */
export const targetText = (target: AuditEntry['target']): string => (target ? `${target.kind}: ${target.label}` : NONE);

/** A value of `details` as text: text as it is, anything else as JSON; an absent one as NONE. */
export function valueText(value: unknown): string {
  if (value === undefined) return NONE;
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

export interface ChangedField {
  field: string;
  before: string;
  after: string;
  changed: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `details` split for display: `change` compares `before` and `after` field by field (both objects:
 * each field of either, in their order; otherwise the two values as one row, field ''), `other` is
 * every other key. No change when details lacks `before` or `after`.
 */
export function splitDetails(details: AuditEntry['details']): {
  change: ChangedField[] | null;
  other: [string, string][];
} {
  if (!details) return { change: null, other: [] };
  const hasChange = 'before' in details && 'after' in details;
  const other = Object.entries(details)
    .filter(([key]) => !hasChange || (key !== 'before' && key !== 'after'))
    .map(([key, value]): [string, string] => [key, valueText(value)]);
  if (!hasChange) return { change: null, other };
  const { before, after } = details;
  const row = (field: string, was: unknown, is: unknown): ChangedField => {
    const [beforeText, afterText] = [valueText(was), valueText(is)];
    return { field, before: beforeText, after: afterText, changed: beforeText !== afterText };
  };
  if (!isRecord(before) || !isRecord(after)) return { change: [row('', before, after)], other };
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return { change: fields.map((field) => row(field, before[field], after[field])), other };
}
