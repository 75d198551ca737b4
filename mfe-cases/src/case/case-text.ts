// How the Case page and the Cases remote's extensions word a case: its reason, state, due time
// and timeline entries. Pure functions over the shapes of api/cases/.
import { deviceError, type CaseEvent, type CaseSummary } from '@veritas/shared';
import { CASE_DISPOSITION_LABELS, CASE_STATE_LABELS, type CaseDisposition } from '@veritas/shared/case-vocabulary';

/** How a case is named on its page, its heading and its tab: "Case #7". */
export const caseName = (id: number) => `Case #${id}`;

/** The reason's code with its catalogue title, e.g. "E004 · Device mismatch". */
export function reasonText(code: string): string {
  const entry = deviceError(code);
  return entry ? `${code} · ${entry.title}` : code;
}

export function dispositionLabel(disposition: string | null | undefined): string | null {
  if (!disposition) return null;
  return CASE_DISPOSITION_LABELS[disposition as CaseDisposition] ?? disposition;
}

/** The state's label; a resolved case also names its disposition ("Resolved · Accepted"). */
export function stateText(summary: Pick<CaseSummary, 'state' | 'disposition'>): string {
  const label = CASE_STATE_LABELS[summary.state] ?? summary.state;
  const disposition = summary.state === 'resolved' ? dispositionLabel(summary.disposition) : null;
  return disposition ? `${label} · ${disposition}` : label;
}

const detail = (event: CaseEvent, side: 'before' | 'after', field: string): unknown => {
  const part = event.details?.[side];
  return part && typeof part === 'object' ? (part as Record<string, unknown>)[field] : undefined;
};

/** What a timeline entry says happened, without its note. */
export function eventText(event: CaseEvent): string {
  switch (event.kind) {
    case 'opened':
      return 'Opened the case';
    case 'scanned':
      return 'Scanned the device again';
    case 'verified-at-hub':
      return 'Verified the device at the hub';
    case 'detached': {
      // The move to the return centre's queue, and out of the hands of an assignee who may not work it.
      const queue = detail(event, 'after', 'queue');
      const was = detail(event, 'before', 'assignee');
      const moved = typeof queue === 'string' ? `; the case moved to queue ${queue}` : '';
      const unassigned = typeof was === 'string' && detail(event, 'after', 'assignee') === null;
      return `Detached the device at the return centre${moved}${unassigned ? `, no longer assigned to ${was}` : ''}`;
    }
    case 'assigned': {
      const assignee = detail(event, 'after', 'assignee');
      return typeof assignee === 'string' && assignee ? `Assigned the case to ${assignee}` : 'Unassigned the case';
    }
    case 'review-started':
      return 'Started the review';
    case 'resolved': {
      const disposition = dispositionLabel(event.details?.disposition as string | undefined);
      return disposition ? `Resolved the case: ${disposition}` : 'Resolved the case';
    }
    case 'reopened':
      return 'Reopened the case';
    case 'note':
      return 'Added a note';
    case 'photo':
      return 'Added a photo';
    default:
      return String(event.kind);
  }
}

/** One fact of what a `scanned` entry's scan found: a term and its value. */
export interface ScanFact {
  term: string;
  value: string;
}

const heldText = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

/**
 * What a later flagging scan (`scanned`) found, as the server holds it on the entry
 * (docs/cases.md#opening-a-case): its result with the catalogue's title, the scanned model and the
 * MAC's manufacturer, the MAC and the hardware ID. Only what is held is said; other entries say none.
 */
export function scanFacts(event: CaseEvent): ScanFact[] {
  if (event.kind !== 'scanned' || !event.details) return [];
  const held = (field: string) => heldText(event.details?.[field]);
  const result = held('result');
  const facts: [string, string | null][] = [
    ['Result', result && reasonText(result)],
    ['Model', held('model')],
    ['Manufacturer', held('manufacturer')],
    ['MAC address', held('mac_address')],
    ['Hardware ID', held('hardware_id')],
  ];
  return facts.flatMap(([term, value]) => (value ? [{ term, value }] : []));
}

/** The timeline oldest first (by time, then by id for entries of the same moment). */
export function orderedTimeline(timeline: readonly CaseEvent[]): CaseEvent[] {
  return [...timeline].sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.id - b.id);
}

/** A user Assign to offers, as the case page and the bulk actions name them: 'ravi (central ops)'. */
export const assigneeLabel = (user: { username: string; role: string }): string =>
  `${user.username} (${user.role.replace('_', ' ')})`;
