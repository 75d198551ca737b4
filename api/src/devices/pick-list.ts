// The Device Pick List on the server (docs/screens.md#server-side-pick-list): pages of records in
// the console's order, counts and hub choices, read through the derived columns of
// derived-columns.ts, their indexes (migration 006) and the summaries (pick-list-summaries.ts).
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
// Each engine's plan of these routes is in its own file (pick-list-search.postgres.ts,
// pick-list-search.sqlite.ts), built of the queries both answer alike (pick-list-query.ts).
//
// A count with a search stops past COUNT_CAP matches: beyond it a number tells nobody anything,
// and counting every match of a short search reads millions of records.
import type { Db } from '../db/schema';
import { forEngine } from '../db/engines';
import { MISSING_TIME_MS } from '../writes/derived-columns';
import {
  countWithoutSearch,
  ordered,
  positionOf,
  SEARCH_TUNING,
  type DeviceFilter,
  type PickListSearch,
  type Position,
  type SearchTuning,
} from './pick-list-query';
import { postgresSearch } from './pick-list-search.postgres';
import { sqliteSearch } from './pick-list-search.sqlite';
import { recordJsonOf } from './record-json';

export interface DevicePage {
  /** Each record as JSON text, rendered by the database (record-json.ts). */
  records: string[];
  /** The position to continue after; null on the last page. */
  next: Position | null;
}

const searchOf = (db: Db): PickListSearch => forEngine(db, { postgres: postgresSearch, sqlite: sqliteSearch });

/** Gets the search ready for its first calls (PostgreSQL's tracking-ID sample), in the background. */
export const prepareSearch = (db: Db): void => searchOf(db).prepare(db);

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
    ? await searchOf(db).page(db, filter, after, limit + 1, tuning)
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
  if (filter.needle) query = query.where(searchOf(db).contains(filter.needle));
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
  return filter.needle ? searchOf(db).count(db, filter, tuning) : countWithoutSearch(db, filter);
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
