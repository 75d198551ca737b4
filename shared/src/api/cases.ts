// Cases (api/cases/, docs/cases.md): a flagged device's owner, deadline and decision. The server
// opens a case in the transaction of the scan that flags a device; the Cases remote works them.
import { Type, type Static } from '@sinclair/typebox';
import { Choice, Nullable, OneOf, OptionalChoice, OptionalText, Text } from './fields';
import { DeviceRecord } from './devices';
import { CONSOLE_ROLES, MAX_USERNAME_LENGTH, type Role } from '../roles';
import {
  CASE_REASONS,
  CASE_STATES,
  CASE_DISPOSITIONS,
  CASE_EVENT_KINDS,
  CASE_STATE_FILTERS,
  CASE_PAGE_LIMIT,
  MAX_ASSIGNEE_QUEUES_LENGTH,
  MAX_CASE_NOTE_LENGTH,
  MAX_CASE_QUEUE_LENGTH,
  MAX_CASE_VIEW_NAME_LENGTH,
  MAX_CASE_JOB_IDS,
  MAX_DUE_HOURS,
  DUE_HOURS_RULE,
  CASE_FORM_MESSAGES,
} from '../case-vocabulary';

export {
  CASE_REASONS,
  CASE_STATES,
  CASE_DISPOSITIONS,
  CASE_STATE_LABELS,
  CASE_DISPOSITION_LABELS,
  CASE_EVENT_KINDS,
  CASE_STATE_FILTERS,
  CASE_PAGE_LIMIT,
  CASE_COUNT_CAP,
  MAX_CASE_NOTE_LENGTH,
  MAX_BULK_CASES,
  MAX_ASSIGNEE_QUEUES_LENGTH,
  MAX_CASE_QUEUE_LENGTH,
  MAX_CASE_VIEW_NAME_LENGTH,
  MAX_CASE_JOB_IDS,
  CASE_FORM_MESSAGES,
  MAX_DUE_HOURS,
  DUE_HOURS_RULE,
  CASE_CHANGED_MESSAGE,
  isOverdue,
  MAX_CASE_PHOTOS,
  MAX_CASE_PHOTO_BYTES,
  CASE_PHOTO_TYPES,
  type CaseDisposition,
  type CaseEventKind,
  type CaseReason,
  type CaseState,
  type CaseStateFilter,
} from '../case-vocabulary';

/** A case as the queue lists it. */
export const CaseSummary = Type.Object({
  id: Type.Integer(),
  tracking_id: Type.String(),
  reason: Choice(CASE_REASONS),
  state: Choice(CASE_STATES),
  disposition: Nullable(Choice(CASE_DISPOSITIONS)),
  /** The group code of the hub or return centre whose queue holds it. */
  queue: Type.String(),
  assignee: Nullable(Type.String({ description: 'The assignee’s username; null: left in its queue.' })),
  /** ISO 8601 UTC. */
  due_at: Type.String(),
  opened_at: Type.String(),
  resolved_at: Nullable(Type.String()),
  /** Raised by every change: a change names the version it was made on (409 otherwise). */
  version: Type.Integer(),
});
export type CaseSummary = Static<typeof CaseSummary>;

/** The scan that flagged the device: what was scanned, by whom, when. */
export const CaseScan = Type.Object({
  by: Nullable(Type.String()),
  at: Type.String(),
  model: Nullable(Type.String()),
  manufacturer: Nullable(Type.String()),
  mac_address: Nullable(Type.String()),
  hardware_id: Nullable(Type.String()),
});
export type CaseScan = Static<typeof CaseScan>;

export const CaseEvent = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  kind: Choice(CASE_EVENT_KINDS),
  by: Nullable(Type.String()),
  note: Nullable(Type.String()),
  details: Nullable(Type.Record(Type.String(), Type.Unknown())),
});
export type CaseEvent = Static<typeof CaseEvent>;

export const CasePhoto = Type.Object({
  id: Type.Integer(),
  content_type: Type.String(),
  size: Type.Integer(),
  by: Nullable(Type.String()),
  at: Type.String(),
  /** Where the console reads it, under /veritas/. */
  url: Type.String(),
});
export type CasePhoto = Static<typeof CasePhoto>;

/** What a viewer may do with a case (docs/screens.md#cases-rights): the console offers only these. */
export const CaseRights = Type.Object({ work: Type.Boolean(), comment: Type.Boolean() });
export type CaseRights = Static<typeof CaseRights>;

/** api/cases/{id}/: the case, its flagging scan, its device record, timeline and photos. */
export const CaseDetail = Type.Object({
  case: CaseSummary,
  scan: CaseScan,
  record: Nullable(DeviceRecord),
  timeline: Type.Array(CaseEvent),
  photos: Type.Array(CasePhoto),
  rights: CaseRights,
});
export type CaseDetail = Static<typeof CaseDetail>;

/** A day of the calendar, YYYY-MM-DD (the server's `calendar-day` refuses 2026-02-30); empty text means any. */
const dayFilter = (name: string) => {
  const message = `${name} must be a day, YYYY-MM-DD.`;
  return Type.Optional(
    Type.String({
      transform: ['trim'],
      pattern: '^(\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01]))?$',
      format: 'calendar-day',
      errorMessages: { missing: message, pattern: message, format: message },
    }),
  );
};

/** The queue's filters (held in the console's URL, stored in saved views): together they all must hold. */
export const CaseFilters = Type.Object({
  reason: OptionalChoice('reason', CASE_REASONS),
  /** Default `active`. */
  state: OptionalChoice('state', CASE_STATE_FILTERS),
  queue: OptionalText('queue', MAX_CASE_QUEUE_LENGTH),
  /** A username, `me`, or `none` (left in its queue). */
  assignee: OptionalText('assignee', MAX_USERNAME_LENGTH),
  /** `1`: only cases past their due time, not resolved. */
  overdue: OptionalChoice('overdue', ['1', '0'] as const),
  /** Opened on or after this day (UTC). */
  from: dayFilter('from'),
  /** Opened on or before this day (UTC). */
  to: dayFilter('to'),
  /** A tracking ID, or its start. */
  q: OptionalText('q', 128),
});
export type CaseFilters = Static<typeof CaseFilters>;

const limitMessage = `limit must be a whole number from 1 to ${CASE_PAGE_LIMIT}.`;

export const CasePageQuery = Type.Object({
  ...CaseFilters.properties,
  after: Type.Optional(
    Type.String({
      // `<due_at>~<id>`, the due time as the server writes it (2026-11-30T09:30:00.000Z).
      pattern:
        '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d\\.\\d{3}Z~[1-9][0-9]{0,9}$',
      description: 'The `next` of the page before.',
      errorMessages: {
        missing: 'after must be the next value of an earlier page.',
        pattern: 'after must be the next value of an earlier page.',
      },
    }),
  ),
  limit: Type.Optional(
    Type.String({
      transform: ['trim'],
      pattern: '^([1-9]\\d?|1\\d\\d|200)$',
      errorMessages: { missing: limitMessage, pattern: limitMessage },
    }),
  ),
});
export type CasePageQuery = Static<typeof CasePageQuery>;

/** A page of cases by due time (soonest first); `next` reads the page after, null at the last. */
export const CasePage = Type.Object({ cases: Type.Array(CaseSummary), next: Nullable(Type.String()) });
export type CasePage = Static<typeof CasePage>;

export const CaseCount = Type.Object({
  total: Type.Integer(),
  /** true: there are at least `total`, the count stopped there. */
  capped: Type.Boolean(),
});
export type CaseCount = Static<typeof CaseCount>;

/** api/cases/summary/: open and overdue cases, of a hub or all, or of the signed-in user. */
export const CaseSummaryQuery = Type.Object({
  hub: OptionalText('hub', MAX_CASE_QUEUE_LENGTH),
  mine: OptionalChoice('mine', ['1', '0'] as const),
});
export type CaseSummaryQuery = Static<typeof CaseSummaryQuery>;
export const CaseTotals = Type.Object({ open: Type.Integer(), overdue: Type.Integer() });
export type CaseTotals = Static<typeof CaseTotals>;

/** The path parameter `id` of a case, a bulk job or a saved view: its 400 names which. */
const idParams = (noun: string) => {
  const message = `The ${noun} id must be a number.`;
  return Type.Object({
    id: Type.String({ pattern: '^[1-9][0-9]{0,9}$', errorMessages: { missing: message, pattern: message } }),
  });
};
export const CaseIdParams = idParams('case');
export type CaseIdParams = Static<typeof CaseIdParams>;
export const CaseJobIdParams = idParams('job');
export const CaseViewIdParams = idParams('view');

const version = Type.Integer({
  minimum: 1,
  maximum: 2_147_483_647,
  description: 'The version of the case the change was made on.',
  errorMessages: { missing: 'version must be the case’s version, a whole number.' },
});
const note = (missing: string) =>
  Text(
    { missing, maxLength: `A note may be at most ${MAX_CASE_NOTE_LENGTH} characters.` },
    { maxLength: MAX_CASE_NOTE_LENGTH },
  );

export const CaseAssign = Type.Object({
  /** A username; null leaves the case in its queue. */
  assignee: Nullable(
    Text(
      {
        missing: 'Choose whom to assign the case to.',
        maxLength: `Usernames are at most ${MAX_USERNAME_LENGTH} characters.`,
      },
      { maxLength: MAX_USERNAME_LENGTH },
    ),
  ),
  version,
});
export type CaseAssign = Static<typeof CaseAssign>;

export const CaseVersion = Type.Object({ version });
export type CaseVersion = Static<typeof CaseVersion>;

const disposition = OneOf(CASE_DISPOSITIONS, {
  missing: CASE_FORM_MESSAGES.dispositionMissing,
  enum: `disposition must be one of ${CASE_DISPOSITIONS.join(', ')}.`,
});

export const CaseResolve = Type.Object({
  disposition,
  note: note(CASE_FORM_MESSAGES.resolutionNoteMissing),
  version,
});
export type CaseResolve = Static<typeof CaseResolve>;

export const CaseReopen = Type.Object({ reason: note(CASE_FORM_MESSAGES.reopenReasonMissing), version });
export type CaseReopen = Static<typeof CaseReopen>;

export const CaseNote = Type.Object({ note: note(CASE_FORM_MESSAGES.noteMissing) });
export type CaseNote = Static<typeof CaseNote>;

/** The answer of a 409: the case as it now is. */
export const CaseConflict = Type.Object({ detail: Type.String(), case: CaseSummary }, { additionalProperties: true });

/** Who a case may be assigned to: the users who may work its queue. */
export const CaseAssignees = Type.Object({
  users: Type.Array(Type.Object({ username: Type.String(), role: Type.String() })),
});
export type CaseAssignees = Static<typeof CaseAssignees>;

/** Hours from opening to due, per reason (super_admin sets them). */
export const CaseDueTimes = Type.Object({
  due_hours: Type.Record(
    Type.String(),
    Type.Integer({ minimum: 1, maximum: MAX_DUE_HOURS, errorMessages: { missing: DUE_HOURS_RULE } }),
  ),
});
export type CaseDueTimes = Static<typeof CaseDueTimes>;

/** A saved view: filters under a name, for its owner or shared with a role. */
export const CaseView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  owner: Type.String(),
  filters: CaseFilters,
  shared_with: Nullable(Type.String()),
});
export type CaseView = Static<typeof CaseView>;
export const CaseViewList = Type.Object({ views: Type.Array(CaseView) });
export type CaseViewList = Static<typeof CaseViewList>;

export const NewCaseView = Type.Object({
  name: Text(
    {
      missing: CASE_FORM_MESSAGES.viewNameMissing,
      maxLength: `A view’s name is at most ${MAX_CASE_VIEW_NAME_LENGTH} characters.`,
    },
    { maxLength: MAX_CASE_VIEW_NAME_LENGTH },
  ),
  filters: CaseFilters,
  /** A role to share it with (any console role); null: the owner's own. */
  shared_with: Nullable(
    OneOf(CONSOLE_ROLES as readonly Exclude<Role, 'operators'>[], {
      missing: 'Choose a role to share the view with.',
      enum: `A view is shared with ${CONSOLE_ROLES.slice(0, -1).join(', ')} or ${CONSOLE_ROLES.at(-1)}.`,
    }),
  ),
});
export type NewCaseView = Static<typeof NewCaseView>;

/** A bulk job: the cases named, or every case matching the filters (up to MAX_BULK_CASES). */
export const NewCaseJob = Type.Object({
  action: OneOf(['assign', 'resolve'] as const, {
    missing: 'Choose assign or resolve.',
    enum: 'action must be assign or resolve.',
  }),
  ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: MAX_CASE_JOB_IDS })),
  filters: Type.Optional(CaseFilters),
  assignee: Type.Optional(Nullable(Type.String({ maxLength: MAX_USERNAME_LENGTH }))),
  disposition: Type.Optional(disposition),
  note: Type.Optional(note(CASE_FORM_MESSAGES.resolutionNoteMissing)),
});
export type NewCaseJob = Static<typeof NewCaseJob>;

export const CaseJob = Type.Object({
  id: Type.Integer(),
  action: Choice(['assign', 'resolve'] as const),
  state: Choice(['running', 'done'] as const),
  total: Type.Integer(),
  done: Type.Integer(),
  /** Cases the job left as they were: already resolved, or changed beyond the job's rights. */
  skipped: Type.Integer(),
  created_at: Type.String(),
  finished_at: Nullable(Type.String()),
});
export type CaseJob = Static<typeof CaseJob>;

/** The live event `cases`: a case opened or changed (the integrations' webhooks carry the same). */
export const CasesEvent = Type.Object({
  action: Choice(['opened', 'updated', 'assigned', 'resolved', 'reopened'] as const),
  case: CaseSummary,
});
export type CasesEvent = Static<typeof CasesEvent>;

/** api/cases/of/: the cases of one tracking ID (Device Details' section). */
export const CasesOfQuery = Type.Object({
  tracking_id: Text(
    { missing: 'tracking_id is required.', maxLength: 'tracking_id must be at most 128 characters.' },
    { maxLength: 128 },
  ),
});
export type CasesOfQuery = Static<typeof CasesOfQuery>;
export const CaseList = Type.Object({ cases: Type.Array(CaseSummary) });
export type CaseList = Static<typeof CaseList>;

/** api/cases/assignees/: who may be given the cases of a queue, or of every one of several. */
export const CaseAssigneesQuery = Type.Object({
  queue: Text(
    { missing: 'queue is required.', maxLength: `queue must be at most ${MAX_ASSIGNEE_QUEUES_LENGTH} characters.` },
    {
      maxLength: MAX_ASSIGNEE_QUEUES_LENGTH,
      description: 'A group code, or several separated by commas: the users who may work every one of them.',
    },
  ),
});
export type CaseAssigneesQuery = Static<typeof CaseAssigneesQuery>;

/** app/cases/photo/: the mobile app's photo of a device it flagged, by tracking ID. */
export const AppCasePhotoQuery = CasesOfQuery;
export type AppCasePhotoQuery = CasesOfQuery;
