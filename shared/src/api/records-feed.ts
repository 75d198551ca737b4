// The records feed of the order-system API (docs/integrations.md#records-feed): the records changed
// since a cursor, or since a time, in the order their changes committed.
import { Type, type Static } from '@sinclair/typebox';
import { DeviceRecord } from './devices';

export const MAX_FEED_LIMIT = 1000;
const limitMessage = `limit must be a whole number from 1 to ${MAX_FEED_LIMIT}.`;
export const FEED_AFTER_MESSAGE = 'after must be the next value of an earlier page.';
const sinceMessage = 'updated_since must be a time such as 2026-11-27T09:30:00Z.';

export const RecordFeedQuery = Type.Object({
  after: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,19}~[0-9]{1,10}$',
      description: 'The `next` of the page before.',
      errorMessages: { missing: FEED_AFTER_MESSAGE, pattern: FEED_AFTER_MESSAGE },
    }),
  ),
  updated_since: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'The first page: records changed at or after this time (ISO 8601 with a zone).',
      errorMessages: { missing: sinceMessage, format: sinceMessage },
    }),
  ),
  limit: Type.Optional(
    Type.String({
      transform: ['trim'],
      pattern: '^([1-9]\\d{0,2}|1000)$',
      errorMessages: { missing: limitMessage, pattern: limitMessage },
    }),
  ),
});
export type RecordFeedQuery = Static<typeof RecordFeedQuery>;

/** A record as api/get_status/ answers it, with when its last change was made. */
export const RecordChange = Type.Object({
  /** ISO 8601, UTC; null for a record not written since the feed began. */
  changed_at: Type.Union([Type.String(), Type.Null()]),
  record: DeviceRecord,
});
export type RecordChange = Static<typeof RecordChange>;

/**
 * A page of the feed: `next` reads on from its last record (always given: an empty page's `next`
 * is where new changes will appear); `more` says a full page follows at once.
 */
export const RecordFeedPage = Type.Object({
  records: Type.Array(RecordChange),
  next: Type.String(),
  more: Type.Boolean(),
});
export type RecordFeedPage = Static<typeof RecordFeedPage>;
