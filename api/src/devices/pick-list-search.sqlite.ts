// How SQLite answers a tracking-ID search of the pick list (pick-list.ts says why these routes):
// the search table is an FTS5 trigram table (search-index.sqlite.ts), whose phrase query matches a
// substring of 3 characters or more case-insensitively; a shorter search walks the order.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/schema';
import { someIdMayHold } from './id-grams';
import {
  candidateCap,
  candidatesWithin,
  COUNT_CAP,
  countOf,
  countWithoutSearch,
  isShort,
  ordered,
  searchOnly,
  upToCap,
  walk,
  type DeviceFilter,
  type Key,
  type PickListSearch,
  type Position,
  type SearchTuning,
} from './pick-list-query';
import { inTail } from './search-index';

const contains = (needle: string) => sql<SqlBool>`instr(lower(d.tracking_id), ${needle}) > 0`;

/** An FTS5 phrase: the trigram tokenizer matches it as a substring, case-insensitively. */
const ftsPhrase = (needle: string) => `"${needle.replace(/"/g, '""')}"`;

/** The ids of the records containing the search (3 characters or more): those the search table finds, and its tail's, tested. */
function matchIds(needle: string): RawBuilder<unknown> {
  // Raw: an FTS5 MATCH on the virtual table, which Kysely's types cannot name.
  return sql`select rowid as id from device_search where device_search match ${ftsPhrase(needle)}
    union all
    select d.id from device_records d where ${inTail} and ${contains(needle)}`;
}

/** The records among matchIds, each tested exactly. */
const candidates = (needle: string) => sql<SqlBool>`d.id in (${matchIds(needle)}) and ${contains(needle)}`;

async function page(
  db: Db,
  filter: DeviceFilter,
  after: Position | null,
  limit: number,
  tuning: SearchTuning,
): Promise<Key[]> {
  const { needle } = filter;
  if (isShort(needle)) {
    if (!(await someIdMayHold(db, needle))) return [];
    // The database walks the order, testing each record, until `limit` match.
    return ordered(db, filter, after).where(contains(needle)).limit(limit).execute();
  }
  const cap = candidateCap(tuning, limit, await countWithoutSearch(db, filter));
  // CROSS JOIN keeps m the outer loop; left to choose, SQLite walks the order's index instead.
  const records = sql`m cross join device_records d on d.id = m.id`;
  const fromIndex = await candidatesWithin(
    db,
    filter,
    after,
    limit,
    cap,
    sql`${matchIds(needle)} limit ${cap + 1}`,
    records,
  );
  if (fromIndex !== null) return fromIndex;
  const { found, stoppedAt } = await walk(db, sqliteSearch, filter, after, limit, tuning.walkFactor * cap);
  if (stoppedAt === null) return found;
  const rest = await ordered(db, filter, stoppedAt)
    .where(candidates(needle))
    .limit(limit - found.length)
    .execute();
  return [...found, ...rest];
}

async function count(db: Db, filter: DeviceFilter, tuning: SearchTuning): Promise<number> {
  const { needle } = filter;
  // The table scan reads the records several times faster than the order's index does.
  const walked = () => upToCap(db, ordered(db, filter, null).where(contains(needle)).clearOrderBy());
  if (isShort(needle)) return (await someIdMayHold(db, needle)) ? walked() : 0;
  // Few candidates: count them (cost: the matches); many: test every record (cost: the records).
  const records = await countWithoutSearch(db, filter);
  const cap = Math.max(tuning.minCandidates, Math.round(tuning.countShare * records));
  const matches = await countOf(db, sql`select id from (${matchIds(needle)}) i limit ${cap + 1}`);
  if (matches > cap) return walked();
  // A search alone: the index's matches counted are the answer.
  if (searchOnly(filter)) return Math.min(matches, COUNT_CAP + 1);
  return upToCap(db, ordered(db, filter, null).clearOrderBy().where(candidates(needle)));
}

export const sqliteSearch: PickListSearch = { prepare: () => {}, contains, page, count };
