// SQLite's bounds of a feed page (records-feed.ts): one transaction writes at a time, so whatever
// committed is readable, and the next change is one past the last.
import { sql } from 'kysely';
import type { FeedBounds } from './records-feed';

export const sqliteFeedBounds: FeedBounds = {
  readable: sql<boolean>`true`,
  head: sql<number>`(select coalesce(max(change_order), 0) + 1 from device_records)`,
};
