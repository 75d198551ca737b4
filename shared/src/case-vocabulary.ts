// The cases' vocabulary (docs/cases.md): reasons, states, dispositions, their labels and limits,
// and who may work them. Plain lists without the schemas of ./api/cases.ts, so the Cases remote's
// pages carry no TypeBox code.
export * from './case-rights';
/** The results that open a case (docs/cases.md#opening-a-case): E003–E010. */
export const CASE_REASONS = ['E003', 'E004', 'E005', 'E006', 'E007', 'E008', 'E009', 'E010'] as const;
export type CaseReason = (typeof CASE_REASONS)[number];

/** open → in_review → resolved; a resolved case may be reopened (open again). */
export const CASE_STATES = ['open', 'in_review', 'resolved'] as const;
export type CaseState = (typeof CASE_STATES)[number];

/** What a resolution decided (docs/cases.md#dispositions). */
export const CASE_DISPOSITIONS = ['accepted', 'rejected', 'quarantined', 'returned_to_vendor', 'recycled'] as const;
export type CaseDisposition = (typeof CASE_DISPOSITIONS)[number];

/** Overdue (docs/cases.md#due-times): past its due time at `now` (ms) and not resolved. */
export function isOverdue(summary: { state: CaseState; due_at: string }, now: number = Date.now()): boolean {
  return summary.state !== 'resolved' && Date.parse(summary.due_at) < now;
}

/** How each is shown. */
export const CASE_STATE_LABELS: Record<CaseState, string> = {
  open: 'Open',
  in_review: 'In review',
  resolved: 'Resolved',
};
export const CASE_DISPOSITION_LABELS: Record<CaseDisposition, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  quarantined: 'Quarantined',
  returned_to_vendor: 'Returned to vendor',
  recycled: 'Recycled',
};

/** The kinds of a case's timeline entries. */
export const CASE_EVENT_KINDS = [
  'opened',
  'scanned',
  'verified-at-hub',
  'detached',
  'assigned',
  'review-started',
  'resolved',
  'reopened',
  'note',
  'photo',
] as const;
export type CaseEventKind = (typeof CASE_EVENT_KINDS)[number];

/** The states a filter may ask for: one state, or `active` (open and in review, the default). */
export const CASE_STATE_FILTERS = ['active', 'all', ...CASE_STATES] as const;
export type CaseStateFilter = (typeof CASE_STATE_FILTERS)[number];

export const CASE_PAGE_LIMIT = 200;
/** The most cases a count reads: beyond it the count says "at least" (docs/cases.md#scale). */
export const CASE_COUNT_CAP = 100_000;
export const MAX_CASE_NOTE_LENGTH = 2000;
/** The most cases one bulk job changes. */
export const MAX_BULK_CASES = 100_000;
/** The longest `queue` api/cases/assignees/ takes: a group code, or several separated by commas. */
export const MAX_ASSIGNEE_QUEUES_LENGTH = 1024;
/** The longest queue (a hub's or return centre's group code) the queue's filters and totals take. */
export const MAX_CASE_QUEUE_LENGTH = 64;
/** The longest name of a saved view. */
export const MAX_CASE_VIEW_NAME_LENGTH = 80;
/** The most cases a bulk job takes by id; more are chosen by the filters they match. */
export const MAX_CASE_JOB_IDS = 1000;

/** What a form of the cases lacks: the server's 400 and the console's form say it alike (docs/errors.md#cases). */
export const CASE_FORM_MESSAGES = {
  viewNameMissing: 'Name the view.',
  dispositionMissing: 'Choose a disposition.',
  resolutionNoteMissing: 'A resolution needs a note.',
  reopenReasonMissing: 'Say why the case is reopened.',
  noteMissing: 'Write a note.',
  jobAssigneeMissing: 'Choose whom to assign the cases to.',
} as const;

/** A reason's due time is a whole number of hours from 1 to this (docs/cases.md#due-times); any other is refused so. */
export const MAX_DUE_HOURS = 8760;
export const DUE_HOURS_RULE = `Each due time is a whole number of hours from 1 to ${MAX_DUE_HOURS}.`;

/** A change made on a version of the case that someone else has changed since (409, docs/cases.md#concurrency). */
export const CASE_CHANGED_MESSAGE = 'Someone else changed this case; it now shows their change.';

/** The most photos one case keeps, and the largest photo taken (docs/cases.md#photos). */
export const MAX_CASE_PHOTOS = 10;
export const MAX_CASE_PHOTO_BYTES = 5 * 1024 * 1024;
/** The types a photo may be, recognised by its bytes. */
export const CASE_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
