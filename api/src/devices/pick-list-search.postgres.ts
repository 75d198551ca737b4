// How PostgreSQL answers a tracking-ID search of the pick list (pick-list.ts says why these routes).
// A sample of the IDs (id-sample.postgres.ts) first says whether the search is common (then it walks without
// asking the index), and the trigram index (search-index.postgres.ts) is asked only for the
// search's rarest fragment, every candidate then tested exactly: a whole tracking ID reads a few
// buffers instead of every digit trigram's list. A search of one or two characters reads the
// tracking-ID index instead.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/schema';
import { someIdMayHold } from './id-grams';
import { estimateSearch, prepareIdSample, type SearchEstimate } from './id-sample.postgres';
import {
  candidateCap,
  candidatesWithin,
  COUNT_CAP,
  countOf,
  countWithoutSearch,
  isShort,
  likePattern,
  NO_FILTER,
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

const contains = (needle: string) => sql<SqlBool>`strpos(lower(d.tracking_id), ${needle}) > 0`;

/**
 * A search of one or two characters: the tracking IDs holding it, at most `max`, from the unique
 * index on tracking_id alone (an index-only scan in its order). Walking the records in the list's
 * order instead reads a table page per record, which at millions of records takes many times as
 * long for a letter no ID holds. LIKE is asked for each ASCII case of the lower-cased search
 * first: tracking IDs are ASCII (the upload's rule), so that passes every match, and it is three
 * times as fast as lower(); the exact test then keeps the matches.
 */
function shortSearchIds(needle: string, max: number | null): RawBuilder<unknown> {
  const cases = [...needle].reduce<string[]>(
    (texts, char) =>
      texts.flatMap((text) => (/[a-z]/.test(char) ? [char, char.toUpperCase()] : [char]).map((c) => text + c)),
    [''],
  );
  const passes = sql.join(
    cases.map((text) => sql`tracking_id like ${likePattern(text)}`),
    sql` or `,
  );
  // Raw: the statement is the operand of array(...) in the conditions below.
  return sql`select tracking_id from device_records
    where (${passes}) and strpos(lower(tracking_id), ${needle}) > 0
    order by tracking_id ${max === null ? sql`` : sql`limit ${max}`}`;
}

/**
 * The ids of the records containing the search (3 characters or more): those the trigram index
 * finds for `fragment`, part of the search (id-sample.postgres.ts says why), and those the search table
 * does not hold yet (search-index.ts), each tested exactly.
 */
function matchIds(needle: string, fragment: string): RawBuilder<unknown> {
  // Raw: a union whose parts are the operand of array(...) and of count(*) below.
  return sql`select id from device_search
      where tracking_key like ${likePattern(fragment)} and strpos(tracking_key, ${needle}) > 0
    union all
    select d.id from device_records d where ${inTail} and ${contains(needle)}`;
}

/** The records containing the search by its index (the ids first, an array, so the plan is the index, then the rows by primary key). */
function candidates(needle: string, estimate: SearchEstimate | null): RawBuilder<SqlBool> {
  return isShort(needle)
    ? sql<SqlBool>`d.tracking_id = any(array(${shortSearchIds(needle, null)}))`
    : sql<SqlBool>`d.id = any(array(${matchIds(needle, estimate?.fragment ?? needle)}))`;
}

/** The records containing the search by its index, at most `max`, with the columns a page's filter and order need. */
function indexMatches(needle: string, fragment: string, max: number): RawBuilder<unknown> {
  const holding = isShort(needle)
    ? sql`d.tracking_id = any(array(${shortSearchIds(needle, max)}))`
    : sql`d.id = any(array(select id from (${matchIds(needle, fragment)}) i limit ${max}))`;
  return sql`select d.id, d.sort_ms, d.hub_key, d.status_key, d.result_key from device_records d where ${holding}`;
}

/**
 * How many records contain the search by the index, counting no further than `cap + 1`. A count
 * reads no record: the IDs come from the indexes alone, where indexMatches also reads each row.
 */
function candidatesUpTo(db: Db, needle: string, cap: number, fragment = needle): Promise<number> {
  const matches = isShort(needle)
    ? shortSearchIds(needle, cap + 1)
    : sql`select id from (${matchIds(needle, fragment)}) i limit ${cap + 1}`;
  return countOf(db, matches);
}

async function page(
  db: Db,
  filter: DeviceFilter,
  after: Position | null,
  limit: number,
  tuning: SearchTuning,
): Promise<Key[]> {
  const { needle } = filter;
  if (isShort(needle) && !(await someIdMayHold(db, needle))) return [];
  const records = await countWithoutSearch(db, filter);
  const cap = candidateCap(tuning, limit, records);
  const estimate = estimateSearch(db, needle);
  // Common by the sample: more than C matches, so the walk is the cheaper way.
  const common = estimate !== null && estimate.share * records > cap;
  if (!common) {
    const matches = indexMatches(needle, estimate?.fragment ?? needle, cap + 1);
    const fromIndex = await candidatesWithin(db, filter, after, limit, cap, matches, sql`m d`);
    if (fromIndex !== null) return fromIndex;
  }
  const { found, stoppedAt } = await walk(db, postgresSearch, filter, after, limit, tuning.walkFactor * cap);
  if (stoppedAt === null) return found;
  const rest = await ordered(db, filter, stoppedAt)
    .where(candidates(needle, estimate))
    .limit(limit - found.length)
    .execute();
  return [...found, ...rest];
}

async function count(db: Db, filter: DeviceFilter, tuning: SearchTuning): Promise<number> {
  const { needle } = filter;
  // Walked in the order, so it meets matches spread over time rather than a range of IDs stored
  // together, which the table scan would reach only after millions of records.
  const walked = () => upToCap(db, ordered(db, filter, null).where(contains(needle)));
  const byCandidates = (estimate: SearchEstimate | null) =>
    upToCap(db, ordered(db, filter, null).clearOrderBy().where(candidates(needle, estimate)));
  if (isShort(needle)) {
    if (!(await someIdMayHold(db, needle))) return 0;
    // The tracking-ID index's matches are the count, read no further than the cap.
    if (searchOnly(filter)) return candidatesUpTo(db, needle, COUNT_CAP);
  }
  const records = await countWithoutSearch(db, filter);
  const estimate = estimateSearch(db, needle);
  if (estimate) {
    // The cheaper of testing the filter's records in order until COUNT_CAP match, and testing
    // every record holding the search's fragment, by the sample's shares.
    const walkReads = estimate.share > 0 ? Math.min(COUNT_CAP / estimate.share, records) : records;
    const candidateReads = estimate.fragmentShare * (await countWithoutSearch(db, NO_FILTER));
    if (walkReads < candidateReads) return walked();
    // A search alone: the search table's matches counted are the answer.
    if (searchOnly(filter)) return candidatesUpTo(db, needle, COUNT_CAP, estimate.fragment);
    return byCandidates(estimate);
  }
  // Before the first sample, a short search under a hub, status or result is walked: counting its
  // candidates below would read the tracking-ID index up to a fifth of the records.
  if (isShort(needle)) return walked();
  // Few candidates: count them (cost: the matches); many: test every record (cost: the records).
  const cap = Math.max(tuning.minCandidates, Math.round(tuning.countShare * records));
  const matches = await candidatesUpTo(db, needle, cap);
  if (matches > cap) return walked();
  // A search alone: the index's matches counted are the answer.
  if (searchOnly(filter)) return Math.min(matches, COUNT_CAP + 1);
  return byCandidates(null);
}

// The tracking-ID sample, ready before the first searches.
export const postgresSearch: PickListSearch = { prepare: prepareIdSample, contains, page, count };
