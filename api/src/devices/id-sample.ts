// A sample of the stored tracking IDs, kept per database for a while. It tells a search's route
// (pick-list.ts) two things before any index is read:
// - how common the search is: its share of the sample. A common one is walked (its matches are
//   near wherever the walk starts); only a rare one asks the trigram index for its matches.
// - which part of it the trigram index answers cheaply. Tracking IDs are a short prefix followed by
//   sequential digits, so the prefix's trigrams are in every record and each digit trigram in
//   about one in a hundred: pg_trgm reads every trigram's list of records for LIKE '%needle%'
//   (about 20,000 buffers at 10M records for a whole ID). The fragment of at most six characters
//   whose trigrams are rarest in the sample finds a superset of the matches in a few buffers; the
//   exact test (strpos) then keeps the real ones.
// The sample is a statistic, never an answer: every route stays exact whatever it holds.
import { sql } from 'kysely';
import type { Db } from '../db/schema';

/** IDs read: a share down to 1/5,000 (2,000 matches among 10M records) is seen. */
const SAMPLE_SIZE = 5000;
/** Taken again after this long: uploads change what is common. */
const SAMPLE_TTL_MS = 10 * 60_000;
/** The longest fragment asked of the trigram index: four trigrams, each a list to read. */
const FRAGMENT_LENGTH = 6;

interface IdSample {
  /** Lower-cased tracking IDs. */
  ids: string[];
  /** Each trigram of the sample: the share of sampled IDs holding it. */
  trigramShare: Map<string, number>;
  takenAt: number;
}

const samples = new WeakMap<Db, Promise<IdSample>>();

async function takeSample(db: Db): Promise<IdSample> {
  // TABLESAMPLE SYSTEM reads whole pages at random: a few dozen pages, not the table.
  const { rows: size } = await sql<{ n: number | string }>`
    select greatest(reltuples, 0) as n from pg_class where oid = 'device_records'::regclass`.execute(db.kysely);
  const records = Number(size[0]?.n ?? 0);
  const percent = records > SAMPLE_SIZE ? (100 * SAMPLE_SIZE) / records : 100;
  const { rows } = await sql<{ id: string }>`
    select lower(tracking_id) as id from device_records tablesample system (${percent}) limit ${SAMPLE_SIZE}`.execute(
    db.kysely,
  );
  const ids = rows.map((row) => row.id);
  const held = new Map<string, number>();
  for (const id of ids) for (const trigram of new Set(trigramsOf(id))) held.set(trigram, (held.get(trigram) ?? 0) + 1);
  const trigramShare = new Map([...held].map(([trigram, n]) => [trigram, n / Math.max(ids.length, 1)]));
  return { ids, trigramShare, takenAt: Date.now() };
}

function trigramsOf(text: string): string[] {
  const chars = [...text];
  return chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join(''));
}

/** The database's sample, taken when missing or stale (PostgreSQL only: SQLite's FTS5 needs none). */
async function sampleOf(db: Db): Promise<IdSample> {
  const current = samples.get(db);
  if (current) {
    const sample = await current.catch(() => null);
    if (sample && Date.now() - sample.takenAt < SAMPLE_TTL_MS) return sample;
  }
  const next = takeSample(db);
  samples.set(db, next);
  // A failed sample is taken again at the next search.
  next.catch(() => samples.delete(db));
  return next;
}

export interface SearchEstimate {
  /** The search's share of the sample: how many records hold it, over how many there are. */
  share: number;
  /** The fragment of the search that the trigram index answers cheaply. */
  fragment: string;
  /** The fragment's estimated share of the records (an upper bound of the search's). */
  fragmentShare: number;
}

/** How common a lower-cased search of 3 characters or more is, and its cheapest fragment. */
export async function estimateSearch(db: Db, needle: string): Promise<SearchEstimate> {
  const sample = await sampleOf(db);
  const sampled = Math.max(sample.ids.length, 1);
  const share = sample.ids.filter((id) => id.includes(needle)).length / sampled;
  const chars = [...needle];
  const length = Math.min(FRAGMENT_LENGTH, chars.length);
  let fragment = needle;
  let leastCost = Infinity;
  for (let start = 0; start + length <= chars.length; start++) {
    const candidate = chars.slice(start, start + length).join('');
    // A trigram never sampled costs least: its list is short.
    const cost = trigramsOf(candidate).reduce((sum, trigram) => sum + (sample.trigramShare.get(trigram) ?? 0), 0);
    if (cost < leastCost) {
      fragment = candidate;
      leastCost = cost;
    }
  }
  const fragmentHeld = sample.ids.filter((id) => id.includes(fragment)).length / sampled;
  return { share, fragment, fragmentShare: Math.max(fragmentHeld, share) };
}
