// PostgreSQL's sample of the stored tracking IDs, kept per database for a while. It tells a search's route
// (pick-list-search.postgres.ts) two things before any index is read:
// - how common the search is: its share of the sample. A common one is walked (its matches are
//   near wherever the walk starts); only a rare one asks an index for its matches (the trigram
//   index, or for one or two characters the tracking-ID index).
// - which part of it the trigram index answers cheaply. Tracking IDs are a short prefix followed by
//   sequential digits, so the prefix's trigrams are in every record and each digit trigram in
//   about one in a hundred: pg_trgm reads every trigram's list of records for LIKE '%needle%'
//   (about 20,000 buffers at 10M records for a whole ID). The fragment of 3 to 6 characters that
//   costs least by the sample (its trigrams' lists, and the records the index gives for it: those
//   holding each of its trigrams) finds a superset of the matches in a few buffers; the exact test
//   (strpos) then keeps the real ones.
// The sample is a statistic, never an answer: every route stays exact whatever it holds.
import { sql } from 'kysely';
import type { Db } from '../db/schema';

/** IDs read: a share down to 1/5,000 (2,000 matches among 10M records) is seen. */
const SAMPLE_SIZE = 5000;
/** Taken again after this long: uploads change what is common. */
const SAMPLE_TTL_MS = 10 * 60_000;
/** The longest fragment asked of the trigram index: four trigrams, each a list to read; more narrow it little. */
const FRAGMENT_LENGTH = 6;

export interface IdSample {
  /** Lower-cased tracking IDs. */
  ids: string[];
  /**
   * Each bigram and trigram of the sample: the sampled IDs holding it (their indexes in `ids`), so
   * its share, too. A fragment's share is counted among the holders of its rarest trigram, not
   * over every ID: testing each fragment of a whole ID against every sampled ID cost more CPU per
   * search than the search itself.
   */
  holders: Map<string, number[]>;
  takenAt: number;
}

/** The latest sample of each database, and whether a new one is being taken. */
const samples = new WeakMap<Db, { sample: IdSample | null; taking: boolean }>();

async function takeSample(db: Db): Promise<IdSample> {
  // Records drawn one by one by id (ids are dense: AUTOINCREMENT, and records are never deleted):
  // TABLESAMPLE draws pages, and a page holds IDs stored together, a range of one shipment.
  const bounds = await db.kysely
    .selectFrom('device_records')
    .select((eb) => [eb.fn.min('id').as('low'), eb.fn.max('id').as('high')])
    .executeTakeFirst();
  const low = Number(bounds?.low ?? 0);
  const high = Number(bounds?.high ?? 0);
  const drawn = [
    ...new Set(Array.from({ length: SAMPLE_SIZE }, () => low + Math.floor(Math.random() * (high - low + 1)))),
  ];
  // Raw: one array parameter (= any), so the statement's text is the same however many ids.
  const { rows } = await sql<{ id: string }>`
    select lower(tracking_id) as id from device_records where id = any(${drawn})`.execute(db.kysely);
  return sampleOfIds(rows.map((row) => row.id));
}

/** The sample of these lower-cased tracking IDs. */
export function sampleOfIds(ids: string[]): IdSample {
  const holders = new Map<string, number[]>();
  ids.forEach((id, index) => {
    for (const gram of new Set([...gramsOf(id, 2), ...gramsOf(id, 3)])) {
      let holding = holders.get(gram);
      if (!holding) holders.set(gram, (holding = []));
      holding.push(index);
    }
  });
  return { ids, holders, takenAt: Date.now() };
}

function gramsOf(text: string, length: number): string[] {
  const chars = [...text];
  return chars.slice(0, 1 - length).map((_, i) => chars.slice(i, i + length).join(''));
}

/**
 * The database's sample, or null before the first is taken. Taking one reads 5,000 records at
 * random (a second or so on a cold 10M table), so it happens beside the searches, which meanwhile
 * use the last one, or none.
 */
function sampleOf(db: Db): IdSample | null {
  let state = samples.get(db);
  if (!state) samples.set(db, (state = { sample: null, taking: false }));
  const stale = !state.sample || Date.now() - state.sample.takenAt >= SAMPLE_TTL_MS;
  if (stale && !state.taking) {
    const taking = state;
    taking.taking = true;
    takeSample(db)
      .then((sample) => (taking.sample = sample))
      // Taken again at a later search (a database restarting, or closed with the server).
      .catch(() => undefined)
      .finally(() => (taking.taking = false));
  }
  return state.sample;
}

/** Starts taking the database's sample, if it has none or an old one. */
export function prepareIdSample(db: Db): void {
  sampleOf(db);
}

export interface SearchEstimate {
  /** The search's share of the sample: how many records hold it, over how many there are. */
  share: number;
  /** The fragment of the search that the trigram index answers cheaply. */
  fragment: string;
  /** The share of the records the trigram index gives for the fragment (a superset of the search's matches). */
  fragmentShare: number;
}

/**
 * Fetching and testing a candidate record reads about this many times more buffers than a
 * record's entry in a trigram list (EXPLAIN (ANALYZE, BUFFERS) at 10M records).
 */
const CANDIDATE_COST = 200;

/** How common a lower-cased search is, and its cheapest fragment; null without a sample yet. */
export function estimateSearch(db: Db, needle: string): SearchEstimate | null {
  const sample = sampleOf(db);
  return sample && estimateFromSample(sample, needle);
}

/** estimateSearch by `sample`. */
export function estimateFromSample(sample: IdSample, needle: string): SearchEstimate {
  const sampled = Math.max(sample.ids.length, 1);
  const chars = [...needle];
  if (chars.length < 3) {
    // No trigram to ask for: the search is its own fragment (pick-list.ts reads the ID index for it).
    const share = sample.ids.filter((id) => id.includes(needle)).length / sampled;
    return { share, fragment: needle, fragmentShare: share };
  }
  const unseen = 1 / (2 * sampled);
  const gramShare = (gram: string) => (sample.holders.get(gram)?.length ?? 0) / sampled || unseen;
  const rarestHolders = (trigrams: string[]) =>
    trigrams.map((trigram) => sample.holders.get(trigram) ?? []).reduce((a, b) => (b.length < a.length ? b : a));
  const shareOf = (text: string) =>
    rarestHolders(gramsOf(text, 3)).filter((index) => sample.ids[index]!.includes(text)).length / sampled;
  // What the trigram index gives for a fragment: every record holding each of its trigrams, a
  // superset of those holding the fragment. A fragment repeating a trigram narrows nothing by it:
  // '99999' is asked as '999' alone, and gives every record holding '999'.
  const indexShareOf = (trigrams: string[]) =>
    rarestHolders(trigrams).filter((index) => trigrams.every((trigram) => sample.ids[index]!.includes(trigram)))
      .length / sampled;
  // A fragment too rare for the sample: each trigram after the first as likely after its first two
  // characters as in the sample (a Markov chain of trigrams).
  const estimatedIndexShare = (trigrams: string[]) => {
    const seen = indexShareOf(trigrams);
    if (seen > 0) return seen;
    const [first, ...rest] = trigrams;
    const chained = rest.reduce(
      (share, trigram) => share * Math.min(1, gramShare(trigram) / gramShare(trigram.slice(0, 2))),
      gramShare(first!),
    );
    return Math.min(chained, unseen);
  };
  // Each fragment of 3 to 6 characters costs its trigrams' lists and its candidates; the least wins,
  // and of equal costs the longer: the index gives the same records for '999' and '99999', and the
  // longer pattern keeps fewer of them when it tests each (pick-list.ts's candidates are fetched again).
  let best = { fragment: needle, share: 1, cost: Infinity };
  for (let length = 3; length <= Math.min(FRAGMENT_LENGTH, chars.length); length++) {
    for (let start = 0; start + length <= chars.length; start++) {
      const fragment = chars.slice(start, start + length).join('');
      const trigrams = [...new Set(gramsOf(fragment, 3))];
      const lists = trigrams.reduce((sum, trigram) => sum + gramShare(trigram), 0);
      const share = estimatedIndexShare(trigrams);
      const cost = lists + CANDIDATE_COST * share;
      if (cost <= best.cost) best = { fragment, share, cost };
    }
  }
  return { share: shareOf(needle), fragment: best.fragment, fragmentShare: best.share };
}
