// PostgreSQL's bounds of a feed page (records-feed.ts). A change is stamped with its transaction's
// id, not in commit order (writes/change-order.postgres.ts): a page reads only below the oldest
// transaction still running, so whatever commits later is stamped above every cursor given out.
import { sql } from 'kysely';
import type { FeedBounds } from './records-feed';

const OLDEST_RUNNING = sql<number>`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

export const postgresFeedBounds: FeedBounds = {
  readable: sql<boolean>`change_order < ${OLDEST_RUNNING}`,
  head: OLDEST_RUNNING,
};
