// The Device Pick List on the server (docs/screens.md#server-side-pick-list): pages of records in
// the console's order, counts and hub choices, read through the derived columns of
// derived-columns.ts, their indexes (migration 006) and the summaries (summaries.ts).
//
// Order: sort_ms descending, then id descending: toDeviceRows's order. A page is cut by keyset:
// the next page starts after the (sort_ms, id) of the last record sent, a row-value comparison
// both engines answer with a seek into the index of the filter (by time, hub, status or result).
//
// Search (a tracking-ID substring, case-insensitive): a page must find `limit` matches in the
// order, and two ways do that, each cheap where the other is dear.
// - Walk: read the filter's index in order, keeping the records that contain the search. Its cost
//   is the number of records read before `limit` matches: small when matches are common.
// - Candidates: the search table's trigram index (search-index.ts: PostgreSQL pg_trgm, SQLite
//   FTS5), with the records it does not hold yet, gives every record containing the search, which
//   are then sorted. Its cost is the number of matches: small when they are rare. It needs 3
//   characters or more.
// A search shorter than 3 characters can only walk; over alphanumeric tracking IDs 1–2
// characters are found nearly everywhere, so the walk ends quickly; one that no tracking ID holds
// is answered first from the table of their short pieces (id-grams.ts), where the walk would read
// every record of the filter. For 3 or more, the trigram index's matches are read
// up to a cap C, and the page is sorted from them when they are at most C. More → walk, but at
// most 4 × C (walkFactor) records (matches can be common overall yet far from where the page
// starts: a shipment's range of IDs long ago); the rest of the page then comes from the
// candidates below where the walk stopped. C = √(limit × records under the filter) balances the
// two: with M matches spread evenly, candidates cost M and a walk limit × N / M, equal at M = C.
// On PostgreSQL a sample of the IDs (id-sample.ts) first says whether the search is common (then
// it walks without asking the index), and the trigram index is asked only for the search's
// rarest fragment, every candidate then tested exactly: a whole tracking ID reads a few buffers
// instead of every digit trigram's list.
//
// A count with a search stops past COUNT_CAP matches: beyond it a number tells nobody anything,
// and counting every match of a short search reads millions of records.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, Engine, StatusKey } from '../db/schema';
import { recordJsonOf } from './record-json';
import { MISSING_TIME_MS } from '../writes/derived-columns';
import { someIdMayHold } from './id-grams';
import { estimateSearch, type SearchEstimate } from './id-sample';
import { inTail } from './search-index';

export interface DeviceFilter {
  /** The tracking-ID search trimmed and lower-cased (JS toLowerCase); '' for none. */
  needle: string;
  /** A hub key (derivedColumns' hub_key); null for every hub. */
  hubKey: string | null;
  status: StatusKey | null;
  /** 'passed' or an E code; null for any result, or none. */
  result: string | null;
}

/** Where a page ends in the order: the last record sent. */
export interface Position {
  sortMs: number;
  id: number;
}

export interface DevicePage {
  /** Each record as JSON text, rendered by the database (src/devices/record-json.ts). */
  records: string[];
  /** The position to continue after; null on the last page. */
  next: Position | null;
}

export interface SearchTuning {
  /** Bounds of the cap C on counted candidates (see above). */
  minCandidates: number;
  maxCandidates: number;
  /** A walk reads at most this many times C records before taking the candidates. */
  walkFactor: number;
  /** A count with a search counts the candidates up to this share of the records, else scans. */
  countShare: number;
}

export const SEARCH_TUNING: SearchTuning = {
  minCandidates: 1000,
  maxCandidates: 100_000,
  walkFactor: 4,
  countShare: 0.2,
};

/** Shortest search the trigram indexes serve. */
const TRIGRAM_LENGTH = 3;

/** A search of one or two characters: no trigram index serves it. */
const isShort = (needle: string) => [...needle].length < TRIGRAM_LENGTH;

/** A count with a search counts this many matches at most (docs/screens.md#server-side-pick-list). */
export const COUNT_CAP = 10_000;

interface Key {
  id: number;
  sort_ms: number | string;
}

const positionOf = (key: Key): Position => ({ sortMs: Number(key.sort_ms), id: key.id });

/** The record contains the search (lower() equals JS toLowerCase on the ASCII the upload allows in tracking IDs). */
function contains(engine: Engine, needle: string): RawBuilder<SqlBool> {
  return engine === 'postgres'
    ? sql<SqlBool>`strpos(lower(d.tracking_id), ${needle}) > 0`
    : sql<SqlBool>`instr(lower(d.tracking_id), ${needle}) > 0`;
}

/** LIKE's pattern for "contains", its wildcards escaped ('_' is common in tracking IDs). */
const likePattern = (needle: string) => `%${needle.replace(/[\\%_]/g, '\\$&')}%`;

/** An FTS5 phrase: the trigram tokenizer matches it as a substring, case-insensitively. */
const ftsPhrase = (needle: string) => `"${needle.replace(/"/g, '""')}"`;

const NO_FILTER: DeviceFilter = { needle: '', hubKey: null, status: null, result: null };

/** The filter's hub, status and result (not the search), and the start of a page, as conditions on a record `d`. */
function filterConditions(filter: DeviceFilter, after: Position | null): RawBuilder<SqlBool>[] {
  const conditions: RawBuilder<SqlBool>[] = [];
  if (filter.hubKey !== null) conditions.push(sql<SqlBool>`d.hub_key = ${filter.hubKey}`);
  if (filter.status !== null) conditions.push(sql<SqlBool>`d.status_key = ${filter.status}`);
  if (filter.result !== null) conditions.push(sql<SqlBool>`d.result_key = ${filter.result}`);
  if (after !== null) conditions.push(sql<SqlBool>`(d.sort_ms, d.id) < (${after.sortMs}, ${after.id})`);
  return conditions;
}

/** The records under the filter's hub, status and result (not the search) from `after` on, in the order, keys only. */
function ordered(db: Db, filter: DeviceFilter, after: Position | null) {
  let query = db.kysely.selectFrom('device_records as d').select(['d.id', 'd.sort_ms']);
  for (const condition of filterConditions(filter, after)) query = query.where(condition);
  return query.orderBy('d.sort_ms', 'desc').orderBy('d.id', 'desc');
}

/** The candidates route: records the trigram index finds, sorted; `limit` of them from `after` on. */
async function candidates(
  db: Db,
  filter: DeviceFilter,
  after: Position | null,
  limit: number,
  estimate: SearchEstimate | null,
): Promise<Key[]> {
  if (db.engine === 'postgres') {
    return ordered(db, filter, after).where(pgCandidates(filter.needle, estimate)).limit(limit).execute();
  }
  return ordered(db, filter, after)
    .where(sqliteCandidates(filter.needle))
    .where(contains(db.engine, filter.needle))
    .limit(limit)
    .execute();
}

/**
 * PostgreSQL: the records containing the search by its index (matchIds; the ids first, an array,
 * so the plan is the index, then the rows by primary key). A search of one or two characters reads
 * the tracking-ID index instead (pgShortSearchIds).
 */
function pgCandidates(needle: string, estimate: SearchEstimate | null): RawBuilder<SqlBool> {
  return isShort(needle)
    ? sql<SqlBool>`d.tracking_id = any(array(${pgShortSearchIds(needle, null)}))`
    : sql<SqlBool>`d.id = any(array(${matchIds('postgres', needle, estimate?.fragment ?? needle)}))`;
}

/**
 * PostgreSQL, a search of one or two characters: the tracking IDs holding it, at most `max`, from
 * the unique index on tracking_id alone (an index-only scan in its order). Walking the records in
 * the list's order instead reads a table page per record, which at millions of records takes many
 * times as long for a letter no ID holds. LIKE is asked for each ASCII case of the lower-cased search first:
 * tracking IDs are ASCII (the upload's rule), so that passes every match, and it is three times as
 * fast as lower(); the exact test then keeps the matches.
 */
function pgShortSearchIds(needle: string, max: number | null): RawBuilder<unknown> {
  const cases = [...needle].reduce<string[]>(
    (texts, char) =>
      texts.flatMap((text) => (/[a-z]/.test(char) ? [char, char.toUpperCase()] : [char]).map((c) => text + c)),
    [''],
  );
  const passes = sql.join(
    cases.map((text) => sql`tracking_id like ${likePattern(text)}`),
    sql` or `,
  );
  return sql`select tracking_id from device_records
    where (${passes}) and strpos(lower(tracking_id), ${needle}) > 0
    order by tracking_id ${max === null ? sql`` : sql`limit ${max}`}`;
}

/**
 * The ids of the records containing the search (3 characters or more): those the search table
 * finds, and those it does not hold yet (search-index.ts), each tested exactly. PostgreSQL's
 * trigram index is read for `fragment`, part of the search (id-sample.ts says why); SQLite's FTS5
 * phrase is the whole search.
 */
function matchIds(engine: Engine, needle: string, fragment: string): RawBuilder<unknown> {
  const indexed =
    engine === 'postgres'
      ? sql`select id from device_search
          where tracking_key like ${likePattern(fragment)} and strpos(tracking_key, ${needle}) > 0`
      : sql`select rowid as id from device_search where device_search match ${ftsPhrase(needle)}`;
  return sql`${indexed}
    union all
    select d.id from device_records d where ${inTail} and ${contains(engine, needle)}`;
}

/** SQLite: the record is among matchIds. */
function sqliteCandidates(needle: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`d.id in (${matchIds('sqlite', needle, needle)})`;
}

/**
 * The records containing the search by its index, at most `max`: their ids, and on PostgreSQL the
 * columns a page's filter and order need, read by primary key.
 */
function indexMatches(db: Db, needle: string, fragment: string, max: number): RawBuilder<unknown> {
  if (db.engine !== 'postgres') return sql`${matchIds(db.engine, needle, fragment)} limit ${max}`;
  const holding = isShort(needle)
    ? sql`d.tracking_id = any(array(${pgShortSearchIds(needle, max)}))`
    : sql`d.id = any(array(select id from (${matchIds(db.engine, needle, fragment)}) i limit ${max}))`;
  return sql`select d.id, d.sort_ms, d.hub_key, d.status_key, d.result_key from device_records d where ${holding}`;
}

/**
 * The candidates route when it is the cheaper: `limit` matches from `after` on, in the order; null
 * when more than `cap` records contain the search. One read of the index answers both: its
 * matches, at most cap + 1, are kept once (a materialized CTE), counted, and the page is taken
 * from them unless there are too many: on PostgreSQL that costs about what counting them alone
 * does, less than the count and the page apart (docs/benchmarks.md#server-side-pick-list-and-tracking-id-search).
 * SQLite's CTE holds ids alone, so that a search too common for candidates costs only its ids.
 */
async function candidatesWithin(
  db: Db,
  filter: DeviceFilter,
  after: Position | null,
  limit: number,
  cap: number,
  estimate: SearchEstimate | null,
): Promise<Key[] | null> {
  const matches = indexMatches(db, filter.needle, estimate?.fragment ?? filter.needle, cap + 1);
  // SQLite's CROSS JOIN keeps m the outer loop; left to choose, it walks the order's index instead.
  const records = db.engine === 'postgres' ? sql`m d` : sql`m cross join device_records d on d.id = m.id`;
  const conditions = [sql<SqlBool>`(select count(*) from m) <= ${cap}`, ...filterConditions(filter, after)];
  const { rows } = await sql<{ n: number | string; id: number | null; sort_ms: number | string | null }>`
    with m as materialized (${matches})
    select c.n, p.id, p.sort_ms from (select count(*) as n from m) c
    left join (
      select d.id, d.sort_ms from ${records} where ${sql.join(conditions, sql` and `)}
      order by d.sort_ms desc, d.id desc limit ${limit}
    ) p on true
    order by p.sort_ms desc, p.id desc`.execute(db.kysely);
  if (Number(rows[0]!.n) > cap) return null;
  return rows.flatMap((row) => (row.id === null ? [] : [{ id: row.id, sort_ms: row.sort_ms! }]));
}

/**
 * How many records contain the search by the index (PostgreSQL's trigram index read for
 * `fragment`), counting no further than `cap + 1`. A search of one or two characters reads
 * PostgreSQL's tracking-ID index: only PostgreSQL counts such a search this way.
 */
async function candidatesUpTo(db: Db, needle: string, cap: number, fragment = needle): Promise<number> {
  // A count reads no record: the IDs come from the indexes alone, where indexMatches would also
  // fetch each match's row for the columns a page needs.
  const matches = isShort(needle)
    ? pgShortSearchIds(needle, cap + 1)
    : sql`select id from (${matchIds(db.engine, needle, fragment)}) i limit ${cap + 1}`;
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from (${matches}) c`.execute(db.kysely);
  return Number(rows[0]!.n);
}

/** The walk route: reads the order from `after` in growing chunks, at most `budget` records; where it stopped short of `limit` matches. */
async function walk(
  db: Db,
  filter: DeviceFilter,
  after: Position | null,
  limit: number,
  budget: number,
): Promise<{ found: Key[]; stoppedAt: Position | null }> {
  const found: Key[] = [];
  let position = after;
  let read = 0;
  let chunk = Math.max(4 * limit, 400);
  for (;;) {
    const size = Math.min(chunk, budget - read);
    const rows = await ordered(db, filter, position)
      .select(contains(db.engine, filter.needle).as('hit'))
      .limit(size)
      .execute();
    for (const row of rows) {
      if (!row.hit) continue;
      found.push(row);
      if (found.length === limit) return { found, stoppedAt: null };
    }
    read += rows.length;
    if (rows.length < size) return { found, stoppedAt: null };
    position = positionOf(rows[rows.length - 1]!);
    if (read >= budget) return { found, stoppedAt: position };
    chunk *= 4;
  }
}

/** Records under the filter's hub, status and result, from the summaries. */
export async function countWithoutSearch(db: Db, filter: DeviceFilter): Promise<number> {
  let query = db.kysely
    .selectFrom('device_counts')
    .select((eb) => eb.fn.sum<number | string | null>('total').as('total'));
  if (filter.hubKey !== null) query = query.where('hub_key', '=', filter.hubKey);
  if (filter.status !== null) query = query.where('status_key', '=', filter.status);
  if (filter.result !== null) query = query.where('result_key', '=', filter.result);
  const row = await query.executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** The keys of up to `limit` records matching the search, from `after` on, in the order. */
async function searched(
  db: Db,
  filter: DeviceFilter,
  after: Position | null,
  limit: number,
  tuning: SearchTuning,
): Promise<Key[]> {
  if (isShort(filter.needle) && !(await someIdMayHold(db, filter.needle))) return [];
  if (isShort(filter.needle) && db.engine !== 'postgres') {
    // Short, on SQLite: the database walks the order, testing each record, until `limit` match.
    return ordered(db, filter, after).where(contains(db.engine, filter.needle)).limit(limit).execute();
  }
  const records = await countWithoutSearch(db, filter);
  const cap = Math.min(tuning.maxCandidates, Math.max(tuning.minCandidates, Math.round(Math.sqrt(limit * records))));
  const estimate = db.engine === 'postgres' ? estimateSearch(db, filter.needle) : null;
  // Common by the sample: more than C matches, so the walk is the cheaper way (see above).
  const common = estimate !== null && estimate.share * records > cap;
  if (!common) {
    const page = await candidatesWithin(db, filter, after, limit, cap, estimate);
    if (page !== null) return page;
  }
  const { found, stoppedAt } = await walk(db, filter, after, limit, tuning.walkFactor * cap);
  if (stoppedAt === null) return found;
  return [...found, ...(await candidates(db, filter, stoppedAt, limit - found.length, estimate))];
}

/** One page: `limit` records from `after` on, and where the next page starts. */
export async function devicePage(
  db: Db,
  filter: DeviceFilter,
  after: Position | null,
  limit: number,
  tuning: SearchTuning = SEARCH_TUNING,
): Promise<DevicePage> {
  // One more than asked tells whether a next page exists.
  const keys = filter.needle
    ? await searched(db, filter, after, limit + 1, tuning)
    : await ordered(db, filter, after)
        .limit(limit + 1)
        .execute();
  const page = keys.slice(0, limit);
  return {
    records: await recordJsonOf(
      db,
      page.map((key) => key.id),
    ),
    next: keys.length > limit ? positionOf(page[page.length - 1]!) : null,
  };
}

/**
 * The records among `ids` that match the filter, in the order, as JSON text: the console reads a
 * record that changed through the query of its list, to learn whether it still belongs there and
 * where (docs/screens.md#server-side-pick-list). At most MAX_IDS ids, so the search is tested on
 * each record rather than through the trigram index.
 */
export async function devicesByIds(db: Db, filter: DeviceFilter, ids: readonly number[]): Promise<string[]> {
  let query = ordered(db, filter, null).where('d.id', 'in', ids);
  if (filter.needle) query = query.where(contains(db.engine, filter.needle));
  const keys = await query.execute();
  return recordJsonOf(
    db,
    keys.map((key) => key.id),
  );
}

/**
 * How many records match the filter. Without a search: a sum over the summaries, exact. With one:
 * counted no further than COUNT_CAP + 1, so more than COUNT_CAP means "more than COUNT_CAP".
 */
export async function deviceCount(db: Db, filter: DeviceFilter, tuning: SearchTuning = SEARCH_TUNING): Promise<number> {
  if (!filter.needle) return countWithoutSearch(db, filter);
  const upToCap = async (query: ReturnType<typeof ordered>) => {
    const matches = query
      .clearSelect()
      .select(sql<number>`1`.as('one'))
      .limit(COUNT_CAP + 1);
    const { n } = await db.kysely
      .selectFrom(matches.as('m'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  };
  // PostgreSQL walks in the order, so it meets matches spread over time rather than a range of IDs
  // stored together, which its table scan would reach only after millions of records; SQLite's
  // table scan reads the records several times faster than its order's index does.
  const walked = () => {
    const matching = ordered(db, filter, null).where(contains(db.engine, filter.needle));
    return upToCap(db.engine === 'postgres' ? matching : matching.clearOrderBy());
  };
  if (isShort(filter.needle)) {
    if (!(await someIdMayHold(db, filter.needle))) return 0;
    if (db.engine !== 'postgres') return walked();
    // The tracking-ID index's matches are the count, read no further than the cap.
    if (filter.hubKey === null && filter.status === null && filter.result === null)
      return candidatesUpTo(db, filter.needle, COUNT_CAP);
  }
  const records = await countWithoutSearch(db, filter);
  const estimate = db.engine === 'postgres' ? estimateSearch(db, filter.needle) : null;
  if (estimate) {
    // The cheaper of testing the filter's records in order until COUNT_CAP match, and testing
    // every record holding the search's fragment, by the sample's shares.
    const walkReads = estimate.share > 0 ? Math.min(COUNT_CAP / estimate.share, records) : records;
    const candidateReads = estimate.fragmentShare * (await countWithoutSearch(db, NO_FILTER));
    if (walkReads < candidateReads) return walked();
    // Without a hub, status or result, the search table's matches counted are the answer.
    if (filter.hubKey === null && filter.status === null && filter.result === null)
      return candidatesUpTo(db, filter.needle, COUNT_CAP, estimate.fragment);
    return upToCap(ordered(db, filter, null).clearOrderBy().where(pgCandidates(filter.needle, estimate)));
  }
  // Before the first sample, a short search under a hub, status or result is walked as on SQLite:
  // counting its candidates below would read the tracking-ID index up to a fifth of the records.
  if (isShort(filter.needle)) return walked();
  // Few candidates: count them (cost: the matches); many: test every record (cost: the records).
  const cap = Math.max(tuning.minCandidates, Math.round(tuning.countShare * records));
  const matches = await candidatesUpTo(db, filter.needle, cap);
  if (matches <= cap) {
    // Without a hub, status or result, the index's matches counted are the answer.
    if (filter.hubKey === null && filter.status === null && filter.result === null) {
      return Math.min(matches, COUNT_CAP + 1);
    }
    const candidates =
      db.engine === 'postgres'
        ? pgCandidates(filter.needle, null)
        : sql<SqlBool>`${sqliteCandidates(filter.needle)} and ${contains(db.engine, filter.needle)}`;
    return upToCap(ordered(db, filter, null).clearOrderBy().where(candidates));
  }
  return walked();
}

/** distinctHubCodes over every record: each hub once, in the spelling of its first record, sorted. */
export async function hubCodes(db: Db): Promise<string[]> {
  const rows = await db.kysely.selectFrom('device_hubs').select('hub_code').execute();
  return rows.map((row) => row.hub_code).sort((a, b) => a.localeCompare(b));
}

/** Largest time a Date holds, in ms. */
const MAX_TIME_MS = 8_640_000_000_000_000;

/** The `next` of a page as the API writes it: opaque text (base64url of "sort_ms.id"). */
export function encodePosition({ sortMs, id }: Position): string {
  return Buffer.from(`${sortMs}.${id}`, 'utf8').toString('base64url');
}

/** A `next` read back; null when it is not one this server writes. */
export function decodePosition(text: string): Position | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const match = /^(-?\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) return null;
  const sortMs = Number(match[1]);
  const id = Number(match[2]);
  const validTime = sortMs === MISSING_TIME_MS || (sortMs >= -MAX_TIME_MS && sortMs <= MAX_TIME_MS);
  return validTime && Number.isSafeInteger(id) && id >= 1 ? { sortMs, id } : null;
}
