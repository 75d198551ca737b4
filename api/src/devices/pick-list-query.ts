// The Device Pick List's queries that both engines answer alike (docs/screens.md#server-side-pick-list):
// the filter and the order, the walk through the order, the counts from the summaries, and the
// page taken from the trigram index's matches. Each engine's search (pick-list-search.postgres.ts,
// pick-list-search.sqlite.ts) is built of these; pick-list.ts says how the routes are chosen.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, StatusKey } from '../db/schema';

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

export interface SearchTuning {
  /** Bounds of the cap C on counted candidates (pick-list.ts). */
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

/** A count with a search counts this many matches at most (docs/screens.md#server-side-pick-list). */
export const COUNT_CAP = 10_000;

/** Shortest search the trigram indexes serve. */
const TRIGRAM_LENGTH = 3;

/** A search of one or two characters: no trigram index serves it. */
export const isShort = (needle: string) => [...needle].length < TRIGRAM_LENGTH;

/** A record's place in the order, as a page's query reads it. */
export interface Key {
  id: number;
  sort_ms: number | string;
}

export const positionOf = (key: Key): Position => ({ sortMs: Number(key.sort_ms), id: key.id });

/** How one engine answers a search: its plans are in pick-list-search.postgres.ts and pick-list-search.sqlite.ts. */
export interface PickListSearch {
  /** Gets ready for the first searches, in the background. */
  prepare(db: Db): void;
  /** The record `d` contains the search (lower() equals JS toLowerCase on the ASCII the upload allows in tracking IDs). */
  contains(needle: string): RawBuilder<SqlBool>;
  /** The keys of up to `limit` records matching the filter and its search, from `after` on, in the order. */
  page(db: Db, filter: DeviceFilter, after: Position | null, limit: number, tuning: SearchTuning): Promise<Key[]>;
  /** How many records match the filter and its search, counted no further than COUNT_CAP + 1. */
  count(db: Db, filter: DeviceFilter, tuning: SearchTuning): Promise<number>;
}

/** LIKE's pattern for "contains", its wildcards escaped ('_' is common in tracking IDs). */
export const likePattern = (needle: string) => `%${needle.replace(/[\\%_]/g, '\\$&')}%`;

/** Every record, whatever its hub, status and result. */
export const NO_FILTER: DeviceFilter = { needle: '', hubKey: null, status: null, result: null };

/** The filter narrows by neither hub, status nor result (a search only). */
export const searchOnly = (filter: DeviceFilter) =>
  filter.hubKey === null && filter.status === null && filter.result === null;

/**
 * The filter's hub, status and result (not the search), and the start of a page, as conditions on
 * a record `d`. Raw: candidatesWithin's statement, which Kysely cannot build, uses them too.
 */
export function filterConditions(filter: DeviceFilter, after: Position | null): RawBuilder<SqlBool>[] {
  const conditions: RawBuilder<SqlBool>[] = [];
  if (filter.hubKey !== null) conditions.push(sql<SqlBool>`d.hub_key = ${filter.hubKey}`);
  if (filter.status !== null) conditions.push(sql<SqlBool>`d.status_key = ${filter.status}`);
  if (filter.result !== null) conditions.push(sql<SqlBool>`d.result_key = ${filter.result}`);
  if (after !== null) conditions.push(sql<SqlBool>`(d.sort_ms, d.id) < (${after.sortMs}, ${after.id})`);
  return conditions;
}

/** The records under the filter's hub, status and result (not the search) from `after` on, in the order, keys only. */
export function ordered(db: Db, filter: DeviceFilter, after: Position | null) {
  let query = db.kysely.selectFrom('device_records as d').select(['d.id', 'd.sort_ms']);
  for (const condition of filterConditions(filter, after)) query = query.where(condition);
  return query.orderBy('d.sort_ms', 'desc').orderBy('d.id', 'desc');
}

export type OrderedQuery = ReturnType<typeof ordered>;

/** The walk route: reads the order from `after` in growing chunks, at most `budget` records; where it stopped short of `limit` matches. */
export async function walk(
  db: Db,
  search: PickListSearch,
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
      .select(search.contains(filter.needle).as('hit'))
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

/** The cap C on the candidates a page reads, for `records` under the filter: √(limit × records), within the tuning's bounds. */
export const candidateCap = (tuning: SearchTuning, limit: number, records: number) =>
  Math.min(tuning.maxCandidates, Math.max(tuning.minCandidates, Math.round(Math.sqrt(limit * records))));

/**
 * The candidates route when it is the cheaper: `limit` matches from `after` on, in the order; null
 * when more than `cap` records contain the search. One read of the index answers both: its
 * matches (`matches`, at most cap + 1) are kept once (a materialized CTE), counted, and the page
 * is taken from them (`records`: the matches as rows `d`) unless there are too many: that costs
 * about what counting them alone does, less than the count and the page apart
 * (docs/benchmarks.md#server-side-pick-list-and-tracking-id-search).
 */
export async function candidatesWithin(
  db: Db,
  filter: DeviceFilter,
  after: Position | null,
  limit: number,
  cap: number,
  matches: RawBuilder<unknown>,
  records: RawBuilder<unknown>,
): Promise<Key[] | null> {
  const conditions = [sql<SqlBool>`(select count(*) from m) <= ${cap}`, ...filterConditions(filter, after)];
  // Raw: a materialized CTE over the engine's raw matches, counted and paged in one statement.
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

/** How many rows `matches` (raw SQL of the engine's indexes) gives. */
export async function countOf(db: Db, matches: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from (${matches}) c`.execute(db.kysely);
  return Number(rows[0]!.n);
}

/** How many records `query` gives, counted no further than COUNT_CAP + 1. */
export async function upToCap(db: Db, query: OrderedQuery): Promise<number> {
  const matches = query
    .clearSelect()
    .select((eb) => eb.lit(1).as('one'))
    .limit(COUNT_CAP + 1);
  const { n } = await db.kysely
    .selectFrom(matches.as('m'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
