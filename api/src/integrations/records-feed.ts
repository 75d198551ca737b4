// The records feed (docs/integrations.md#records-feed): the records whose last change comes after a
// cursor, in the order the changes committed, along device_records_by_change (change_order, id),
// each as api/get_status/ answers it. A cursor is `<change_order>~<id>` of the last record read.
import { FEED_AFTER_MESSAGE, type RecordFeedQuery } from '@veritas/shared/domain';
import { sql, type RawBuilder } from 'kysely';
import { forEngine } from '../db/engines';
import type { Db } from '../db/schema';
import { BadRequest } from '../http-errors';
import { recordJsonOf } from '../devices/record-json';
import { postgresFeedBounds } from './records-feed.postgres';
import { sqliteFeedBounds } from './records-feed.sqlite';

const DEFAULT_LIMIT = 100;

interface Position {
  order: number;
  id: number;
}

/** What a page may read, and where the next change will be (records-feed.postgres.ts, records-feed.sqlite.ts). */
export interface FeedBounds {
  readable: RawBuilder<boolean>;
  head: RawBuilder<number | string>;
}

const boundsOf = (db: Db): FeedBounds => forEngine(db, { postgres: postgresFeedBounds, sqlite: sqliteFeedBounds });

/** Before every record: those not written since the feed began read change_order 0. */
const BEGINNING: Position = { order: 0, id: 0 };

const cursorOf = (at: Position): string => `${at.order}~${at.id}`;

function positionOf(cursor: string): Position {
  const [order, id] = cursor.split('~').map(Number);
  return { order: order!, id: id! };
}

/**
 * Changes are stamped in a transaction's order, and with a time: both grow together, but not in step
 * (on PostgreSQL a transaction takes its id at its first write, and may stamp its records a moment
 * later). `updated_since` starts before the earliest change order among the first SINCE_SPAN changes
 * stamped at or after its time, so a change made at or after it is missed only if its transaction
 * stayed open while that many later changes were stamped.
 */
export const SINCE_SPAN = 1000;

/**
 * Where `updated_since` starts (along device_records_by_change_time, which holds both stamps):
 * before the earliest change order of the span, else where the next change will be.
 */
async function startAt(db: Db, since: number): Promise<Position> {
  const span = db.kysely
    .selectFrom('device_records')
    .select('change_order')
    .where('changed_ms', '>=', since)
    .orderBy('changed_ms')
    .limit(SINCE_SPAN);
  const first = await db.kysely
    .selectFrom(span.as('span'))
    .select((eb) => eb.fn.min('change_order').as('order'))
    .executeTakeFirst();
  if (first?.order != null) return { order: Number(first.order), id: 0 };
  return { order: await headOf(db), id: 0 };
}

/** Where the next change will be: no cursor the feed gives out is past it. */
async function headOf(db: Db): Promise<number> {
  const head = await sql<{ order: number | string }>`select ${boundsOf(db).head} as ${sql.ref('order')}`.execute(
    db.kysely,
  );
  return Number(head.rows[0]!.order);
}

/**
 * The position of an `after` cursor. The feed gives out the place of a record read, below the
 * head, or the head itself (an empty page's `next`, id 0): a cursor past the head, or at it past id
 * 0, was never given out. Taken, it would skip the changes until then, so it is refused.
 */
async function cursorPosition(db: Db, cursor: string): Promise<Position> {
  const position = positionOf(cursor);
  const head = await headOf(db);
  if (position.order > head || (position.order === head && position.id !== 0)) {
    throw new BadRequest('after', FEED_AFTER_MESSAGE);
  }
  return position;
}

/** A page of the feed as JSON text (the database renders each record, as for get_status). */
export async function recordFeedPage(db: Db, query: RecordFeedQuery): Promise<string> {
  const limit = query.limit ? Number(query.limit) : DEFAULT_LIMIT;
  const from: Position = query.after
    ? await cursorPosition(db, query.after)
    : query.updated_since
      ? await startAt(db, Date.parse(query.updated_since))
      : BEGINNING;
  const rows = await db.kysely
    .selectFrom('device_records')
    .select(['id', 'change_order', 'changed_ms'])
    .where((eb) => eb(eb.refTuple('change_order', 'id'), '>', eb.tuple(from.order, from.id)))
    .where(boundsOf(db).readable)
    .orderBy('change_order')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const records = await recordJsonOf(
    db,
    page.map((row) => row.id),
  );
  const last = page.at(-1);
  const next = last ? { order: Number(last.change_order), id: last.id } : from;
  const changes = page.map((row, i) => {
    const ms = Number(row.changed_ms);
    return `{"changed_at":${ms === 0 ? 'null' : `"${new Date(ms).toISOString()}"`},"record":${records[i]}}`;
  });
  return `{"records":[${changes.join(',')}],"next":"${cursorOf(next)}","more":${more}}`;
}
