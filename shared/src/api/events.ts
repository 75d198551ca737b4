// api/events/ (feature live-events, docs/events.md): the server-sent events' data, as the server
// writes it and the console reads it.
import { Type, type Static } from '@sinclair/typebox';
import { Choice, Text } from './fields';
import { DeviceRecordList } from './devices';
import { AuditEntry } from './audit';
import { CasesEvent } from './cases';
import { RemotesEvent } from './registry';
import { RoleName } from './sign-in';
import { ORGANIZATIONS } from './users';

export const EventsQuery = Type.Object({
  // Text of any kind up to the API's limit: one that is not an id is answered with a reset.
  last_event_id: Type.Optional(
    Text(
      { missing: 'last_event_id must be text.' },
      {
        minLength: 0,
        description: 'The id of the last event received, when the Last-Event-ID header cannot be sent.',
      },
    ),
  ),
});

/** A change of device records: a batch of an upload stored, or records after a field step. */
export const RecordsEvent = Type.Union([
  Type.Object({ action: Type.Literal('uploaded'), count: Type.Integer(), hubs: Type.Array(Type.String()) }),
  Type.Object({
    action: Choice(['submitted', 'verified', 'detached'] as const),
    records: DeviceRecordList,
  }),
]);
export type RecordsEvent = Static<typeof RecordsEvent>;

export const UsersEvent = Type.Object({
  action: Choice(['created', 'activated', 'deactivated'] as const),
  username: Type.String(),
  role: RoleName,
});
export type UsersEvent = Static<typeof UsersEvent>;

export const GroupsEvent = Type.Object({
  action: Type.Literal('created'),
  name: Type.String(),
  code: Type.String(),
  organization: Choice(ORGANIZATIONS),
});
export type GroupsEvent = Static<typeof GroupsEvent>;

/** The events of the stream, by event name. */
export const LiveEventData = Type.Object({
  records: RecordsEvent,
  users: UsersEvent,
  groups: GroupsEvent,
  remotes: RemotesEvent,
  /** A new entry of the audit trail: to admins and super admins only. */
  audit: AuditEntry,
  /** A case opened or changed: to the viewers who may read it (docs/cases.md#events). */
  cases: CasesEvent,
});
export type LiveEventData = Static<typeof LiveEventData>;

/** The stream as documented: what each event carries, by its name. */
export const LiveEventStream = Type.Object(LiveEventData.properties, {
  description:
    'Each event has an id, its name (records, users, groups, remotes, audit or cases, or reset: reload everything) and as data the JSON of the property of that name. A stream resumes after Last-Event-ID or last_event_id.',
});
